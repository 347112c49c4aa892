import { useId, useState } from "react";
import { errorMessage } from "../../../error-message.js";
import { useLegacyConfigUpdate } from "./project-config-queries.js";
import { domainsUpdate, handlerPathForm, type TrustedDomain } from "./trusted-domain-form.js";

/**
 * One trusted domain in the list, with its handler path, which can be changed in place (the domain itself is
 * its identity: to change it, add the new one and remove this one).
 */
export function TrustedDomainRow({ domain, domains, onRemove }: { domain: TrustedDomain; domains: TrustedDomain[]; onRemove: () => void }) {
  const id = useId();
  const update = useLegacyConfigUpdate();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(domain.handler_path);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const startEditing = () => {
    update.reset();
    setValue(domain.handler_path);
    setProblem(null);
    setSaved(false);
    setEditing(true);
  };

  const save = () => {
    update.reset();
    const parsed = handlerPathForm.safeParse({ handlerPath: value });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? "Check the handler path.");
    setProblem(null);
    if (parsed.data.handlerPath === domain.handler_path) return setEditing(false);
    const next = domainsUpdate(domains.map((d) => (d.domain === domain.domain ? { ...d, handler_path: parsed.data.handlerPath } : d)));
    if ("error" in next) return setProblem(next.error);
    update.mutate(next.body, {
      onSuccess: () => {
        setEditing(false);
        setSaved(true);
      },
    });
  };

  // The server's refusal or the form's own problem, whichever there is, under the field it is about.
  const error = problem ?? (update.isError ? `Could not save the handler path: ${errorMessage(update.error)}` : null);

  return (
    <li className="config-row">
      <div>
        <code className="dashboard-code">{domain.domain}</code>
        {editing ? null : <div className="dashboard-muted">Handler path: {domain.handler_path}</div>}
      </div>
      {editing ? (
        <form
          className="dashboard-inline-form config-domain-edit"
          aria-label={`Handler path of ${domain.domain}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <div className="dashboard-field">
            <label htmlFor={`${id}-path`}>New handler path</label>
            <input
              id={`${id}-path`}
              value={value}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-path-error` : undefined}
              onChange={(event) => setValue(event.target.value)}
            />
            {error ? (
              <p id={`${id}-path-error`} role="alert" className="dashboard-error">
                {error}
              </p>
            ) : null}
          </div>
          <div className="dashboard-actions">
            <button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Save handler path"}
            </button>
            <button type="button" className="dashboard-secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="dashboard-actions">
          <button type="button" className="dashboard-secondary" aria-label={`Edit the handler path of ${domain.domain}`} onClick={startEditing}>
            Edit
          </button>
          <button type="button" className="dashboard-danger" aria-label={`Remove ${domain.domain}`} onClick={onRemove}>
            Remove
          </button>
        </div>
      )}
      {saved && !editing ? (
        <p role="status" className="dashboard-muted config-domain-saved">
          Handler path saved.
        </p>
      ) : null}
    </li>
  );
}
