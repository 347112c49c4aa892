import type { ServerUser } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { TextField } from "../../../components/text-field.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { useCheckedInput } from "../../../use-checked-input.js";
import { userName } from "./user-display.js";
import { userCreateForm, type UserCreateInput, type UserCreateValues } from "./user-forms.js";
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
  const { input, setInput, errors, submitWith } = useCheckedInput(userCreateForm, EMPTY);
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

  const send = submitWith((values) => create.mutate(values));
  function submit(event: FormEvent) {
    setCreated(null);
    send(event);
  }

  const field = (name: keyof UserCreateInput, label: string, options: { type?: string; autoComplete?: string; hint?: string } = {}) => (
    <TextField
      id={`${id}-${name}`}
      name={name}
      label={label}
      type={options.type ?? "text"}
      autoComplete={options.autoComplete ?? "off"}
      hint={options.hint}
      error={errors[name]}
      value={input[name]}
      onChange={(value) => setInput({ ...input, [name]: value })}
    />
  );

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a user</h2>
      <form onSubmit={submit} noValidate className="dashboard-form">
        {field("email", "Email", { type: "email" })}
        {field("password", "Password", { type: "password", autoComplete: "new-password", hint: "Optional: without one, the user signs in another way (e.g. an email code)." })}
        {field("displayName", "Display name", { hint: "Optional." })}
        <FailureAlert action="create the user" error={create.error} />
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
