import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { QueryState } from "../../components/query-state.js";
import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { DeleteTeamCard } from "./teams/delete-team-card.js";
import { TeamDetailsCard } from "./teams/team-details-card.js";
import { TeamInvitationsCard } from "./teams/team-invitations-card.js";
import { TeamMembersCard } from "./teams/team-members-card.js";
import { TeamMetadataCard } from "./teams/team-metadata-card.js";
import { TeamPermissionsCard } from "./teams/team-permissions-card.js";
import { teamKeys } from "./teams/team-queries.js";
import "./teams/teams.css";

/**
 * One team of the project (`/projects/$projectId/teams/$teamId`): its name, members, their permissions in
 * the team, invitations, metadata, and deletion. Everything is done with the project's server access, so no
 * member's permissions limit it.
 */
export function TeamPage() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  // Read loosely, as useProjectId() does: the lazily loaded page does not import the router.
  const { teamId } = useParams({ strict: false }) as { teamId?: string };
  const team = useQuery({ queryKey: teamKeys.team(projectId, teamId ?? ""), queryFn: () => admin.getServerTeam(teamId!), enabled: !!teamId });
  return (
    <>
      <p className="dashboard-muted">
        <Link to="/projects/$projectId/teams" params={{ projectId }}>
          Teams
        </Link>{" "}
        / {team.data?.displayName ?? "Team"}
      </p>
      <QueryState query={team} what="the team">
        {(loaded) => (
          <>
            <h2 className="dashboard-title">{loaded.displayName}</h2>
            <p>
              <Link to="/projects/$projectId/payments" params={{ projectId }} search={{ tab: "customers", customer: `team:${loaded.id}` }}>
                Items and purchases of this team
              </Link>
            </p>
            <TeamDetailsCard projectId={projectId} admin={admin} team={loaded} />
            <TeamMembersCard projectId={projectId} admin={admin} teamId={loaded.id} />
            <TeamPermissionsCard projectId={projectId} admin={admin} teamId={loaded.id} />
            <TeamInvitationsCard projectId={projectId} admin={admin} teamId={loaded.id} />
            <TeamMetadataCard projectId={projectId} admin={admin} team={loaded} />
            <DeleteTeamCard projectId={projectId} admin={admin} team={loaded} />
          </>
        )}
      </QueryState>
    </>
  );
}
