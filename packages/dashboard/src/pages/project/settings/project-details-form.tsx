import type { AdminApp, AdminProject } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { formErrors, projectCreateForm, type ProjectCreateInput, type ProjectCreateValues } from "../../../project-form.js";
import { ownedProjectsKey } from "../../../queries.js";
import { projectQuery } from "./project-query.js";

/**
 * The project's name and description (`PATCH /internal/projects/current`), checked with the same rules as when
 * it was created. The heading above and the owner's list of projects show the new name once it is saved.
 */
export function ProjectDetailsForm({ project, admin, userId }: { project: AdminProject; admin: AdminApp; userId: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [input, setInput] = useState<ProjectCreateInput>({ displayName: project.displayName, description: project.description });
  const [errors, setErrors] = useState<ReturnType<typeof formErrors>>({});
  const save = useMutation({
    mutationFn: (values: ProjectCreateValues) => admin.updateAdminProject({ displayName: values.displayName, description: values.description }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(projectQuery(project.id, admin).queryKey, updated);
      setInput({ displayName: updated.displayName, description: updated.description });
      await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = projectCreateForm.safeParse(input);
    setErrors(parsed.success ? {} : formErrors(parsed.error));
    if (parsed.success) save.mutate(parsed.data);
  }

  const field = (name: keyof ProjectCreateInput, label: string, hint?: string) => (
    <div className="dashboard-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        value={input[name]}
        onChange={(event) => {
          setInput({ ...input, [name]: event.target.value });
          save.reset();
        }}
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
      <h2 id={`${id}-title`}>Project details</h2>
      <form onSubmit={submit} noValidate className="dashboard-form">
        {field("displayName", "Project name")}
        {field("description", "Description", "Optional: what the project is for.")}
        {save.isError ? (
          <p role="alert" className="dashboard-error">
            Could not save the project: {save.error.message}
          </p>
        ) : null}
        <div className="settings-submit">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </button>
          <span role="status" className="dashboard-muted">
            {save.isSuccess ? "Saved." : ""}
          </span>
        </div>
      </form>
    </section>
  );
}
