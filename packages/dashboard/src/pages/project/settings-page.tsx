import { useUser } from "@latchkey/react";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../components/query-state.js";
import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { DeleteProject } from "./settings/delete-project.js";
import { ProjectDetailsForm } from "./settings/project-details-form.js";
import { projectQuery } from "./settings/project-query.js";
import { TransferProject } from "./settings/transfer-project.js";
import "./settings/settings.css";

/** The project's Settings: its name and description, the team that owns it, and its deletion. */
export function SettingsPage() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const user = useUser();
  const project = useQuery(projectQuery(projectId, admin));
  if (!user) return <p role="status">Loading…</p>;
  return (
    <QueryState query={project} what="the project's settings">
      {(data) => (
        <>
          <ProjectDetailsForm key={data.id} project={data} admin={admin} userId={user.id} />
          <TransferProject project={data} admin={admin} userId={user.id} />
          <DeleteProject project={data} admin={admin} userId={user.id} />
        </>
      )}
    </QueryState>
  );
}
