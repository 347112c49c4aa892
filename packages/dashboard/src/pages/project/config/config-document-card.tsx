import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { QueryState } from "../../../components/query-state.js";
import { errorMessage } from "../../../error-message.js";
import { useUnsavedChanges } from "../../../use-unsaved-changes.js";
import { JsonEditor } from "../keys/json-editor.js";
import { projectKey } from "../../../project-admin.js";
import { projectConfigKey, useConfigOverrideUpdate, useProjectConfig, useProjectSettings } from "../project-config/project-config-queries.js";
import { overrideBetween } from "./config-diff.js";

const pretty = (config: unknown) => JSON.stringify(config, null, 2);

/**
 * The project's whole configuration as one JSON document (`GET /internal/config`, defaults included), edited in
 * place: saving sends what changed as an override (`PATCH /internal/config/override`, dotted keys; a key deleted
 * from the document goes back to its default). The server's refusal is shown as it words it, e.g.
 * `[ERROR] The key "x" is not valid for the schema.`, and the text stays for the owner to fix.
 */
export function ConfigDocumentCard() {
  const config = useProjectConfig();
  const { projectId } = useProjectSettings();
  const queryClient = useQueryClient();
  // Everything of the project is read again (the other pages' views too), then the config as it now is.
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: projectKey(projectId) });
    return queryClient.getQueryData(projectConfigKey(projectId));
  };
  return (
    <QueryState query={config} what="the configuration">
      {(data) => <ConfigDocumentEditor config={data} reload={reload} />}
    </QueryState>
  );
}

function ConfigDocumentEditor({ config, reload }: { config: unknown; reload: () => Promise<unknown> }) {
  const id = useId();
  // What the editor was seeded with (the config the changes are computed against), and a key that reseeds it.
  const [base, setBase] = useState(() => ({ config, text: pretty(config), version: 0 }));
  const [text, setText] = useState(base.text);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const update = useConfigOverrideUpdate();
  const leavePrompt = useUnsavedChanges(text !== base.text);

  const reseed = (next: unknown, message: string) => {
    const nextText = pretty(next);
    setBase((current) => ({ config: next, text: nextText, version: current.version + 1 }));
    setText(nextText);
    setStatus(message);
  };

  const save = () => {
    update.reset();
    setStatus("");
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch (error) {
      return setProblem(`This is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof edited !== "object" || edited === null || Array.isArray(edited)) return setProblem("The configuration must be a JSON object.");
    setProblem(null);
    const change = overrideBetween(base.config, edited);
    if (Object.keys(change).length === 0) return setStatus("Nothing changed.");
    update.mutate(change, { onSuccess: async () => reseed(await reload(), `Saved ${Object.keys(change).length} change${Object.keys(change).length === 1 ? "" : "s"}.`) });
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Configuration</h2>
      <form
        className="dashboard-form"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <div className="dashboard-field">
          <span id={`${id}-label`}>Configuration (JSON)</span>
          <p id={`${id}-hint`} className="dashboard-muted">
            Everything the project is set to, defaults included: the other pages edit the same document. Change values and save; what changed is sent as an
            override. A key you delete goes back to its default.
          </p>
          <JsonEditor
            key={base.version}
            initialValue={base.text}
            labelledBy={`${id}-label`}
            describedBy={`${id}-hint`}
            onChange={(value) => {
              setText(value);
              setProblem(null);
              setStatus("");
              update.reset();
            }}
          />
        </div>
        <div className="dashboard-actions">
          <button type="button" className="dashboard-secondary" onClick={() => void reload().then((next) => reseed(next, "Reloaded the saved configuration."))}>
            Reload
          </button>
          <button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save configuration"}
          </button>
        </div>
        {problem || update.isError ? (
          <p role="alert" className="dashboard-error config-refusal">
            {problem ?? errorMessage(update.error)}
          </p>
        ) : (
          <p role="status" className="dashboard-muted">
            {status}
          </p>
        )}
      </form>
      {leavePrompt}
    </section>
  );
}
