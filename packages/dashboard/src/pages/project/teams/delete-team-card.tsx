import type { AdminApp, ServerTeam } from "@latchkey/core";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { DeleteCard } from "../../../components/delete-card.js";
import { teamKeys } from "./team-queries.js";

/** Deletes the team (with its memberships and invitations) once its name is typed, then goes back to the teams. */
export function DeleteTeamCard({ projectId, admin, team }: { projectId: string; admin: AdminApp; team: ServerTeam }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <DeleteCard
      title="Delete this team"
      actionLabel="Delete team"
      confirmTitle={`Delete ${team.displayName}?`}
      typeToConfirm={team.displayName}
      remove={() => admin.deleteServerTeam(team.id)}
      onDone={async () => {
        await navigate({ to: "/projects/$projectId/teams", params: { projectId } });
        queryClient.removeQueries({ queryKey: teamKeys.team(projectId, team.id) });
        await queryClient.invalidateQueries({ queryKey: teamKeys.all(projectId), exact: true });
      }}
    >
      <p>The team, its memberships, its members' permissions in it and its pending invitations are deleted. Its members' user accounts stay.</p>
    </DeleteCard>
  );
}
