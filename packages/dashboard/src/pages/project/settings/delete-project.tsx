import type { AdminApp, AdminProject } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { projectKey } from "../../../project-admin.js";
import { ownedProjectsKey } from "../../../queries.js";

/**
 * Deletes the project (`DELETE /internal/projects/current`) once its name is typed, then leads to the projects,
 * whose list is loaded afresh; the deleted project's cached data is dropped.
 */
export function DeleteProject({ project, admin, userId }: { project: AdminProject; admin: AdminApp; userId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => admin.deleteProject(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
      await navigate({ to: "/projects" });
      queryClient.removeQueries({ queryKey: projectKey(project.id) });
    },
  });
  return (
    <section className="dashboard-card settings-danger" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete this project</h2>
      <p>Deleting the project removes its users, teams, keys and settings for good. Apps using its keys stop working.</p>
      <button
        type="button"
        className="dashboard-danger"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        Delete project
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${project.displayName}?`}
        confirmLabel="Delete project"
        typeToConfirm={project.displayName}
        busy={remove.isPending}
        error={remove.isError ? `Could not delete the project: ${remove.error.message}` : null}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
