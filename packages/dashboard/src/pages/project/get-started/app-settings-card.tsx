import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { ExpiryField, type ExpiryChoice } from "../../../components/expiry-field.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { useProjectSettings } from "../project-config/project-config-queries.js";
import { createAppKeys, publishableKeysKey, rememberNewAppKeys, useNewAppKeys } from "./app-keys.js";
import { CodeBlock } from "./code-block.js";
import { envBlock, type AppSettings } from "./snippets.js";

/**
 * What an app needs to reach the project, as a `.env` block: the server's address, the project id and a
 * publishable client key, always shown (it is public). A secret server key made in this visit is in it too,
 * this once. A project without a publishable key gets a button that makes a key set.
 */
export function AppSettingsCard({ baseUrl, children }: { baseUrl: string; children: (settings: AppSettings) => ReactNode }) {
  const id = useId();
  const { projectId, admin } = useProjectSettings();
  const keys = useQuery({ queryKey: publishableKeysKey(projectId), queryFn: () => admin.listPublishableClientKeys() });
  const fresh = useNewAppKeys(projectId);

  return (
    <QueryState query={keys} what="the project's keys">
      {(list) => {
        const settings: AppSettings = {
          baseUrl,
          projectId,
          publishableClientKey: fresh.keySet?.publishableClientKey ?? list[0]?.publishableClientKey ?? null,
          secretServerKey: fresh.keySet?.secretServerKey ?? null,
        };
        return (
          <>
            <section className="dashboard-card" aria-labelledby={`${id}-title`}>
              <h2 id={`${id}-title`}>Your app's settings</h2>
              <p>
                Put these in your app's <code>.env</code> (Next.js: <code>.env.local</code>). The publishable client key is public: it goes into pages and
                is shown here whenever you come back.
              </p>
              {settings.secretServerKey ? (
                <div className="config-once">
                  <p role="alert">
                    <strong>Copy the secret server key now. You will not see it again:</strong> the server keeps only its last four characters. It is
                    for your own server; never put it in a page.
                  </p>
                  <button type="button" className="dashboard-secondary" onClick={fresh.forget}>
                    I have copied the secret key
                  </button>
                </div>
              ) : null}
              <CodeBlock code={envBlock(settings)} label=".env block" />
              {settings.publishableClientKey ? null : <NewKeysForm />}
            </section>
            {children(settings)}
          </>
        );
      }}
    </QueryState>
  );
}

/** Makes the app's key set (publishable + secret server key); it never expires unless a lifetime is picked. */
function NewKeysForm() {
  const id = useId();
  const { projectId, admin } = useProjectSettings();
  const queryClient = useQueryClient();
  const [expiry, setExpiry] = useState<ExpiryChoice>("never");
  const create = useMutation({
    mutationFn: () => createAppKeys(admin, expiry),
    onSuccess: (keySet) => rememberNewAppKeys(queryClient, projectId, keySet),
  });
  return (
    <form
      className="dashboard-form"
      aria-label="Create app keys"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <p>This project has no publishable client key yet. Make one, with a secret server key for your app's server.</p>
      <ExpiryField id={`${id}-expiry`} label="Keys expire after" value={expiry} onChange={setExpiry} />
      <FailureAlert action="create the keys" error={create.error} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create app keys"}
      </button>
    </form>
  );
}
