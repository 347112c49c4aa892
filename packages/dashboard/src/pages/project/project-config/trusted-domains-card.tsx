import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { errorMessage } from "../../../error-message.js";
import { useLegacyConfigUpdate, type LegacyConfig } from "./project-config-queries.js";
import { SaveStatus } from "./save-status.js";
import { domainForm, domainsUpdate, type TrustedDomain } from "./trusted-domain-form.js";
import { TrustedDomainRow } from "./trusted-domain-row.js";

/**
 * The URLs the project's users may be sent back to after signing in (wildcards allowed, e.g.
 * `https://*.example.com`), each with the path of its auth handler pages, which can be edited in place. The
 * list is saved whole.
 */
export function TrustedDomainsCard({ config }: { config: LegacyConfig }) {
  const id = useId();
  const update = useLegacyConfigUpdate();
  const remove = useLegacyConfigUpdate();
  const [values, setValues] = useState({ domain: "", handlerPath: "/handler" });
  const [errors, setErrors] = useState<{ domain?: string; handlerPath?: string }>({});
  const [removing, setRemoving] = useState<TrustedDomain | null>(null);
  const domains = config.domains;

  const save = (next: TrustedDomain[], mutation: typeof update, onSuccess: () => void) => {
    const update = domainsUpdate(next);
    if ("error" in update) return setErrors({ domain: update.error });
    mutation.mutate(update.body, { onSuccess });
  };

  const add = () => {
    update.reset();
    const parsed = domainForm.safeParse(values);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as "domain" | "handlerPath"] ??= issue.message;
      return setErrors(next);
    }
    if (domains.some((d) => d.domain === parsed.data.domain)) return setErrors({ domain: "This URL is already trusted." });
    setErrors({});
    save([...domains, { domain: parsed.data.domain, handler_path: parsed.data.handlerPath }], update, () =>
      setValues({ domain: "", handlerPath: "/handler" }),
    );
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Trusted domains</h2>
      <p className="dashboard-muted">
        After signing in, users are only sent back to these URLs (and to localhost if it is allowed). A <code>*</code> matches one part of a host
        name, e.g. <code>https://*.example.com</code>.
      </p>
      {domains.length === 0 ? (
        <p>No trusted domains yet.</p>
      ) : (
        <ul className="config-list" aria-label="Trusted domains">
          {domains.map((domain) => (
            <TrustedDomainRow key={domain.domain} domain={domain} domains={domains} onRemove={() => (remove.reset(), setRemoving(domain))} />
          ))}
        </ul>
      )}
      <form
        className="dashboard-form"
        aria-label="Add a trusted domain"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <h3>Add a trusted domain</h3>
        <div className="dashboard-field">
          <label htmlFor={`${id}-domain`}>URL</label>
          <input
            id={`${id}-domain`}
            type="url"
            inputMode="url"
            placeholder="https://app.example.com"
            value={values.domain}
            aria-invalid={errors.domain ? true : undefined}
            aria-describedby={errors.domain ? `${id}-domain-error` : undefined}
            onChange={(event) => setValues({ ...values, domain: event.target.value })}
          />
          {errors.domain ? (
            <p id={`${id}-domain-error`} className="dashboard-error">
              {errors.domain}
            </p>
          ) : null}
        </div>
        <div className="dashboard-field">
          <label htmlFor={`${id}-handler`}>Handler path</label>
          <input
            id={`${id}-handler`}
            value={values.handlerPath}
            aria-invalid={errors.handlerPath ? true : undefined}
            aria-describedby={`${id}-handler-hint${errors.handlerPath ? ` ${id}-handler-error` : ""}`}
            onChange={(event) => setValues({ ...values, handlerPath: event.target.value })}
          />
          <p id={`${id}-handler-hint`} className="dashboard-muted">
            Where your app serves the sign-in, sign-up and other auth pages.
          </p>
          {errors.handlerPath ? (
            <p id={`${id}-handler-error`} className="dashboard-error">
              {errors.handlerPath}
            </p>
          ) : null}
        </div>
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? "Adding…" : "Add domain"}
        </button>
        <SaveStatus saved={update.isSuccess} error={update.isError ? errorMessage(update.error) : null} />
      </form>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this trusted domain?"
        confirmLabel="Remove domain"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) save(domains.filter((d) => d.domain !== removing.domain), remove, () => setRemoving(null));
        }}
      >
        <p>
          Users will no longer be sent back to <code className="dashboard-code">{removing?.domain}</code> after signing in.
        </p>
      </ConfirmDialog>
    </section>
  );
}
