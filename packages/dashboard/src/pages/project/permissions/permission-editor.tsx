import type { PermissionDefinition } from "@latchkey/core";
import { useId, useState, type FormEvent } from "react";
import { fieldErrors } from "../../../form-errors.js";
import { permissionForm, type PermissionFormInput, type PermissionFormValues } from "./permission-form.js";

/**
 * The fields of a permission: id, description and the permissions of the same scope it contains. Used to
 * create one (empty) and to edit one (filled in; a new id renames it and its grants).
 */
export function PermissionEditor({
  title,
  initial,
  candidates,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial?: PermissionDefinition;
  /** The permissions it may contain (its scope's, without itself). */
  candidates: PermissionDefinition[];
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (values: PermissionFormValues) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [input, setInput] = useState<PermissionFormInput>({
    id: initial?.id ?? "",
    description: initial?.description ?? "",
    containedPermissionIds: initial?.containedPermissionIds ?? [],
  });
  const [errors, setErrors] = useState<Partial<Record<keyof PermissionFormInput, string>>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = permissionForm.safeParse(input);
    setErrors(parsed.success ? {} : fieldErrors<keyof PermissionFormInput>(parsed.error));
    if (parsed.success) onSubmit(parsed.data);
  }

  const toggle = (permissionId: string, on: boolean) =>
    setInput({
      ...input,
      containedPermissionIds: on ? [...input.containedPermissionIds, permissionId] : input.containedPermissionIds.filter((p) => p !== permissionId),
    });

  return (
    <form className="dashboard-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <div className="dashboard-field">
        <label htmlFor={`${id}-id`}>Permission id</label>
        <input
          id={`${id}-id`}
          value={input.id}
          onChange={(event) => setInput({ ...input, id: event.target.value })}
          aria-invalid={errors.id ? true : undefined}
          aria-describedby={`${id}-id-note`}
          autoComplete="off"
          spellCheck={false}
        />
        <span id={`${id}-id-note`} className={errors.id ? "dashboard-error" : "dashboard-muted"}>
          {errors.id ?? "Lowercase letters, numbers, “:” and “_”; unique across team and project permissions."}
        </span>
      </div>
      <div className="dashboard-field">
        <label htmlFor={`${id}-description`}>Description</label>
        <input id={`${id}-description`} value={input.description} onChange={(event) => setInput({ ...input, description: event.target.value })} autoComplete="off" />
      </div>
      {candidates.length > 0 ? (
        <fieldset className="teams-checkboxes">
          <legend>Contained permissions</legend>
          {candidates.map((candidate) => (
            <label key={candidate.id}>
              <input
                type="checkbox"
                checked={input.containedPermissionIds.includes(candidate.id)}
                onChange={(event) => toggle(candidate.id, event.target.checked)}
              />
              <code className="dashboard-code">{candidate.id}</code>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="dashboard-muted">There is no other permission in this scope to contain yet.</p>
      )}
      {error ? (
        <p role="alert" className="dashboard-error">
          {error}
        </p>
      ) : null}
      <div className="dashboard-actions">
        {onCancel ? (
          <button type="button" className="dashboard-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
