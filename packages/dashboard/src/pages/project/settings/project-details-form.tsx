import type { AdminApp, AdminProject } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { ProjectFields } from "../../../project-fields.js";
import { projectCreateForm, type ProjectCreateValues } from "../../../project-form.js";
import { ownedProjectsKey } from "../../../queries.js";
import { useCheckedInput } from "../../../use-checked-input.js";
import { projectQuery } from "./project-query.js";

/**
 * The project's name and description (`PATCH /internal/projects/current`), checked with the same rules as when
 * it was created. The heading above and the owner's list of projects show the new name once it is saved.
 */
export function ProjectDetailsForm({ project, admin, userId }: { project: AdminProject; admin: AdminApp; userId: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const { input, setInput, errors, submitWith } = useCheckedInput(projectCreateForm, { displayName: project.displayName, description: project.description });
  const save = useMutation({
    mutationFn: (values: ProjectCreateValues) => admin.updateAdminProject({ displayName: values.displayName, description: values.description }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(projectQuery(project.id, admin).queryKey, updated);
      setInput({ displayName: updated.displayName, description: updated.description });
      await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
    },
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Project details</h2>
      <form onSubmit={submitWith((values) => save.mutate(values))} noValidate className="dashboard-form">
        <ProjectFields
          id={id}
          input={input}
          errors={errors}
          onChange={(changed) => {
            setInput(changed);
            save.reset();
          }}
        />
        <FailureAlert action="save the project" error={save.error} />
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
