import { useApp } from "@latchkey/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { formErrors, projectCreateForm, type ProjectCreateInput, type ProjectCreateValues } from "../project-form.js";
import { ownedProjectsKey } from "../queries.js";

const EMPTY: ProjectCreateInput = { displayName: "", description: "" };

/** Creates a project owned by the owner's selected team; the list above reloads when it is made. */
export function CreateProjectForm({ userId, ownerTeamId }: { userId: string; ownerTeamId: string }) {
  const app = useApp();
  const queryClient = useQueryClient();
  const id = useId();
  const [input, setInput] = useState<ProjectCreateInput>(EMPTY);
  const [errors, setErrors] = useState<ReturnType<typeof formErrors>>({});
  const create = useMutation({
    mutationFn: (values: ProjectCreateValues) => app.createProject({ ...values, ownerTeamId }),
    onSuccess: async () => {
      setInput(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = projectCreateForm.safeParse(input);
    setErrors(parsed.success ? {} : formErrors(parsed.error));
    if (parsed.success) create.mutate(parsed.data);
  }

  const field = (name: keyof ProjectCreateInput, label: string, hint?: string) => (
    <div className="dashboard-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        value={input[name]}
        onChange={(event) => setInput({ ...input, [name]: event.target.value })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : hint ? `${id}-${name}-hint` : undefined}
      />
      {errors[name] ? (
        <span id={`${id}-${name}-error`} className="dashboard-error">
          {errors[name]}
        </span>
      ) : hint ? (
        <span id={`${id}-${name}-hint`} className="dashboard-muted">
          {hint}
        </span>
      ) : null}
    </div>
  );

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a project</h2>
      <form onSubmit={submit} noValidate className="dashboard-form">
        {field("displayName", "Project name")}
        {field("description", "Description", "Optional: what the project is for.")}
        {create.isError ? (
          <p role="alert" className="dashboard-error">
            Could not create the project: {create.error.message}
          </p>
        ) : null}
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create project"}
        </button>
      </form>
    </section>
  );
}
