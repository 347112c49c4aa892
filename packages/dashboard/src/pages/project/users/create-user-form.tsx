import type { ServerUser } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { useProjectAdmin } from "../../../project-admin.js";
import { errorMessage } from "./error-message.js";
import { formErrors, userCreateForm, type UserCreateInput, type UserCreateValues } from "./user-forms.js";
import { userName } from "./user-display.js";
import { usersKey } from "./user-queries.js";

const EMPTY: UserCreateInput = { email: "", password: "", displayName: "" };

/**
 * Creates a user (even when sign-up is off): an email they sign in with, an optional password and name. The
 * list above reloads, newest first, so the new user shows at the top of its first page.
 */
export function CreateUserForm({ projectId }: { projectId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  const [input, setInput] = useState<UserCreateInput>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof UserCreateInput, string>>>({});
  const [created, setCreated] = useState<ServerUser | null>(null);
  const create = useMutation({
    mutationFn: (values: UserCreateValues) =>
      admin.createUser({ primaryEmail: values.email, primaryEmailAuthEnabled: true, password: values.password, displayName: values.displayName }),
    onSuccess: async (user) => {
      setInput(EMPTY);
      setCreated(user);
      await queryClient.invalidateQueries({ queryKey: usersKey(projectId) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    const parsed = userCreateForm.safeParse(input);
    setErrors(parsed.success ? {} : formErrors<UserCreateInput>(parsed.error));
    if (parsed.success) create.mutate(parsed.data);
  }

  const field = (name: keyof UserCreateInput, label: string, options: { type?: string; autoComplete?: string; hint?: string } = {}) => (
    <div className="dashboard-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={options.type ?? "text"}
        autoComplete={options.autoComplete ?? "off"}
        value={input[name]}
        onChange={(event) => setInput({ ...input, [name]: event.target.value })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : options.hint ? `${id}-${name}-hint` : undefined}
      />
      {errors[name] ? (
        <span id={`${id}-${name}-error`} className="dashboard-error">
          {errors[name]}
        </span>
      ) : options.hint ? (
        <span id={`${id}-${name}-hint`} className="dashboard-muted">
          {options.hint}
        </span>
      ) : null}
    </div>
  );

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a user</h2>
      <form onSubmit={submit} noValidate className="dashboard-form">
        {field("email", "Email", { type: "email" })}
        {field("password", "Password", { type: "password", autoComplete: "new-password", hint: "Optional: without one, the user signs in another way (e.g. an email code)." })}
        {field("displayName", "Display name", { hint: "Optional." })}
        {create.isError ? (
          <p role="alert" className="dashboard-error">
            Could not create the user: {errorMessage(create.error)}
          </p>
        ) : null}
        {created ? (
          <p role="status">
            Created{" "}
            <Link to="/projects/$projectId/users/$userId" params={{ projectId, userId: created.id }}>
              {userName(created)}
            </Link>
            .
          </p>
        ) : null}
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create user"}
        </button>
      </form>
    </section>
  );
}
