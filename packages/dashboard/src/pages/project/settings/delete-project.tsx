import type { AdminApp, AdminProject } from "@latchkey/core";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { DeleteCard } from "../../../components/delete-card.js";
import { projectKey } from "../../../project-admin.js";
import { ownedProjectsKey } from "../../../queries.js";

/**
 * Deletes the project (`DELETE /internal/projects/current`) once its name is typed, then leads to the projects,
 * whose list is loaded afresh; the deleted project's cached data is dropped.
 */
export function DeleteProject({ project, admin, userId }: { project: AdminProject; admin: AdminApp; userId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <DeleteCard
      title="Delete this project"
      actionLabel="Delete project"
      confirmTitle={`Delete ${project.displayName}?`}
      typeToConfirm={project.displayName}
      remove={() => admin.deleteProject()}
      onDone={async () => {
        await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
        await navigate({ to: "/projects" });
        queryClient.removeQueries({ queryKey: projectKey(project.id) });
      }}
      failure="delete the project"
    >
      <p>Deleting the project removes its users, teams, keys and settings for good. Apps using its keys stop working.</p>
    </DeleteCard>
  );
}
