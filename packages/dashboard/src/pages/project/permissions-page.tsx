import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { PermissionDefaultsCard } from "./permissions/permission-defaults-card.js";
import { PermissionScopeCard } from "./permissions/permission-scope-card.js";
import "./teams/teams.css";

/**
 * The project's permissions: its team and project permission definitions, each scope with a drawing of which
 * permission contains which, and the defaults for team creators, team members and users.
 */
export function PermissionsPage() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  return (
    <>
      <PermissionScopeCard projectId={projectId} admin={admin} scope="team" />
      <PermissionScopeCard projectId={projectId} admin={admin} scope="project" />
      <PermissionDefaultsCard projectId={projectId} admin={admin} />
    </>
  );
}
