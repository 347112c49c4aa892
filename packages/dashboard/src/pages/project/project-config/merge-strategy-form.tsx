import { OAUTH_ACCOUNT_MERGE_STRATEGIES, adminProjectConfigUpdate, type OAuthAccountMergeStrategy } from "@latchkey/protocol/schemas";
import { useId, useState } from "react";
import { errorMessage } from "../../../error-message.js";
import { useLegacyConfigUpdate, type LegacyConfig } from "./project-config-queries.js";
import { SaveStatus } from "./save-status.js";

const STRATEGY_LABELS: Record<OAuthAccountMergeStrategy, string> = {
  link_method: "Add the provider to the existing account",
  raise_error: "Refuse the sign-in with an error",
  allow_duplicates: "Create a separate account",
};

/** What happens when someone signs in with an OAuth provider whose email address already has an account. */
export function MergeStrategyForm({ config }: { config: LegacyConfig }) {
  const id = useId();
  // The person's choice until it is saved; the saved value otherwise.
  const [choice, setChoice] = useState<OAuthAccountMergeStrategy | null>(null);
  const strategy = choice ?? config.oauth_account_merge_strategy;
  const update = useLegacyConfigUpdate();
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Accounts with the same email</h2>
      <form
        className="dashboard-form"
        onSubmit={(event) => {
          event.preventDefault();
          const body = adminProjectConfigUpdate.safeParse({ oauth_account_merge_strategy: strategy });
          if (body.success) update.mutate(body.data, { onSuccess: () => setChoice(null) });
        }}
      >
        <div className="dashboard-field">
          <label htmlFor={`${id}-strategy`}>When an OAuth sign-in brings an email address that already has an account</label>
          <select
            id={`${id}-strategy`}
            value={strategy}
            onChange={(event) => {
              update.reset();
              setChoice(event.target.value as OAuthAccountMergeStrategy);
            }}
          >
            {OAUTH_ACCOUNT_MERGE_STRATEGIES.map((value) => (
              <option key={value} value={value}>
                {STRATEGY_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save"}
        </button>
        <SaveStatus saved={update.isSuccess} error={update.isError ? errorMessage(update.error) : null} />
      </form>
    </section>
  );
}
