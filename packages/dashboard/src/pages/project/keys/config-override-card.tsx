import { useId, useState } from "react";
import { QueryState } from "../../../components/query-state.js";
import { errorMessage } from "../../../error-message.js";
import { useUnsavedChanges } from "../../../use-unsaved-changes.js";
import { useConfigOverrideUpdate, useProjectConfig } from "../project-config/project-config-queries.js";
import { SaveStatus } from "../project-config/save-status.js";
import { JsonEditor } from "./json-editor.js";

/** What the empty editor shows as its placeholder: an example, not text the owner has to delete first. */
const EXAMPLE = `{
  "auth.passkey.allowSignIn": true
}`;

/** The editor's text as a config override: a JSON object, or why it is not one. */
export function parseOverride(text: string): { ok: true; change: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: false, error: 'Write the override first: a JSON object such as { "auth.passkey.allowSignIn": true }.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `This is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, error: "The override must be a JSON object, e.g. { \"auth.allowSignUp\": false }." };
  return { ok: true, change: value as Record<string, unknown> };
}

/**
 * Edits the project's configuration directly: a JSON object merged over the stored override (dotted keys
 * such as `"auth.oauth.providers.github"` allowed, `null` removes a key). The server checks it against the
 * config schema; a refusal, or text that is not JSON, is shown and the text stays in the editor.
 */
export function ConfigOverrideCard() {
  const id = useId();
  // The editor starts empty; the text last applied (at first nothing): anything else would be lost on leaving.
  const [text, setText] = useState("");
  const [applied, setApplied] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const update = useConfigOverrideUpdate();
  const config = useProjectConfig();
  const leavePrompt = useUnsavedChanges(text !== applied);

  const submit = () => {
    update.reset();
    const parsed = parseOverride(text);
    if (!parsed.ok) return setProblem(parsed.error);
    setProblem(null);
    update.mutate(parsed.change, { onSuccess: () => setApplied(text) });
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Configuration override</h2>
      <form
        className="dashboard-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="dashboard-field">
          <span id={`${id}-label`}>Override (JSON)</span>
          <p id={`${id}-hint`} className="dashboard-muted">
            A JSON object merged over the project's configuration. Keys may be dotted paths such as <code>"auth.allowSignUp"</code>; <code>null</code>{" "}
            removes a key. The server checks it before anything changes.
          </p>
          <JsonEditor
            initialValue=""
            placeholder={EXAMPLE}
            labelledBy={`${id}-label`}
            describedBy={`${id}-hint`}
            onChange={(value) => {
              setText(value);
              setProblem(null);
              update.reset();
            }}
          />
        </div>
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? "Applying…" : "Apply override"}
        </button>
        <SaveStatus saved={update.isSuccess} error={problem ?? (update.isError ? errorMessage(update.error) : null)} />
      </form>
      <details>
        <summary>Current configuration</summary>
        <QueryState query={config} what="the configuration">
          {(data) => (
            <pre className="config-current dashboard-code" tabIndex={0} aria-label="Current configuration" data-testid="current-config">
              {JSON.stringify(data, null, 2)}
            </pre>
          )}
        </QueryState>
      </details>
      {leavePrompt}
    </section>
  );
}
