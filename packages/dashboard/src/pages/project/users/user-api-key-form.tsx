import type { UserApiKeyFirstView } from "@latchkey/core";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ExpiryField } from "../../../components/expiry-field.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { API_KEY_EXPIRY_CHOICES, userApiKeyForm, type UserApiKeyFormValues } from "./user-forms.js";

const EMPTY: UserApiKeyFormValues = { description: "", expiry: "90" };

/** Creates an API key for the user: what it is for and how long it lives. */
export function UserApiKeyForm({ projectId, userId, onCreated }: { projectId: string; userId: string; onCreated: (apiKey: UserApiKeyFirstView) => Promise<void> }) {
  const admin = useProjectAdmin(projectId);
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (input: { description: string; expiresAt: Date | null }) => admin.createUserApiKey(userId, input),
    onSuccess: async (apiKey) => {
      setValues(EMPTY);
      await onCreated(apiKey);
    },
  });

  const submit = () => {
    create.reset();
    const parsed = userApiKeyForm.safeParse(values);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Check the form.");
    setError(null);
    create.mutate(parsed.data);
  };

  return (
    <form
      className="dashboard-form"
      aria-label="Create an API key for the user"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3>Create an API key</h3>
      <div className="dashboard-field">
        <label htmlFor={`${id}-description`}>Key description</label>
        <input
          id={`${id}-description`}
          value={values.description}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-description-error` : undefined}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
        />
        {error ? (
          <p id={`${id}-description-error`} className="dashboard-error">
            {error}
          </p>
        ) : null}
      </div>
      <ExpiryField
        id={`${id}-expiry`}
        label="Key expires after"
        choices={API_KEY_EXPIRY_CHOICES}
        value={values.expiry}
        onChange={(expiry) => setValues({ ...values, expiry })}
      />
      <div className="dashboard-actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create API key"}
        </button>
      </div>
      <FailureAlert action="create the key" error={create.error} />
    </form>
  );
}
