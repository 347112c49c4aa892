import type { InternalApiKeyFirstView } from "@latchkey/core";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ExpiryField } from "../../../components/expiry-field.js";
import { errorMessage } from "../../../error-message.js";
import { useProjectSettings } from "../project-config/project-config-queries.js";
import { SaveStatus } from "../project-config/save-status.js";
import { KEY_KINDS, keySetForm, type KeySetFormValues } from "./key-sets.js";

const EMPTY: KeySetFormValues = { description: "", expiry: "90", hasPublishableClientKey: true, hasSecretServerKey: true, hasSuperSecretAdminKey: false };

/** Creates a key set: a description, how long it lives, and which of the three keys it has. */
export function CreateKeySetForm({ onCreated }: { onCreated: (keySet: InternalApiKeyFirstView) => void }) {
  const id = useId();
  const { admin } = useProjectSettings();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<{ description?: string; kinds?: string }>({});
  const create = useMutation({ mutationFn: admin.createInternalApiKey, onSuccess: onCreated });

  const submit = () => {
    const parsed = keySetForm.safeParse(values);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === "description") next.description ??= issue.message;
        else next.kinds ??= issue.message;
      }
      return setErrors(next);
    }
    setErrors({});
    create.mutate(parsed.data);
  };

  return (
    <form
      className="dashboard-form"
      aria-label="Create a key set"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3>Create a key set</h3>
      <div className="dashboard-field">
        <label htmlFor={`${id}-description`}>Description</label>
        <input
          id={`${id}-description`}
          value={values.description}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${id}-description-error` : undefined}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
        />
        {errors.description ? (
          <p id={`${id}-description-error`} className="dashboard-error">
            {errors.description}
          </p>
        ) : null}
      </div>
      <ExpiryField id={`${id}-expiry`} label="Expires after" value={values.expiry} onChange={(expiry) => setValues({ ...values, expiry })} />
      <fieldset className="config-fieldset" aria-describedby={errors.kinds ? `${id}-kinds-error` : undefined}>
        <legend>Keys</legend>
        {KEY_KINDS.map((kind) => (
          <div key={kind.field} className="config-switch">
            <input
              id={`${id}-${kind.field}`}
              type="checkbox"
              checked={values[kind.field]}
              aria-describedby={`${id}-${kind.field}-hint`}
              onChange={(event) => setValues({ ...values, [kind.field]: event.target.checked })}
            />
            <label htmlFor={`${id}-${kind.field}`}>{kind.label}</label>
            <p id={`${id}-${kind.field}-hint`} className="dashboard-muted">
              {kind.hint}
            </p>
          </div>
        ))}
        {errors.kinds ? (
          <p id={`${id}-kinds-error`} className="dashboard-error">
            {errors.kinds}
          </p>
        ) : null}
      </fieldset>
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create keys"}
      </button>
      <SaveStatus saved={false} error={create.isError ? errorMessage(create.error) : null} />
    </form>
  );
}
