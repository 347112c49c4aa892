import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { QueryState } from "../../../components/query-state.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { userPartKey } from "./user-queries.js";

/** The teams the user is a member of, each linking to its team page (members and roles are managed there). */
export function UserTeamsCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const teams = useQuery({ queryKey: userPartKey(projectId, userId, "teams"), queryFn: () => admin.listServerTeams({ userId }) });
  return (
    <section className="dashboard-card" aria-labelledby="user-teams-title">
      <h2 id="user-teams-title">Teams</h2>
      <QueryState query={teams} what="the user's teams" isEmpty={(items) => items.length === 0} empty={<p>This user is not in any team.</p>}>
        {(items) => (
          <ul className="dashboard-list" aria-labelledby="user-teams-title">
            {items.map((team) => (
              <li key={team.id}>
                <Link to="/projects/$projectId/teams/$teamId" params={{ projectId, teamId: team.id }}>
                  {team.displayName}
                </Link>
                <code className="dashboard-code">{team.id}</code>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
