import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { QueryState } from "../../components/query-state.js";
import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { CreateTeamCard } from "./teams/create-team-card.js";
import { teamKeys } from "./teams/team-queries.js";
import { TeamsTable } from "./teams/teams-table.js";
import "./teams/teams.css";

/** The project's teams: a searchable table whose rows open each team's page, and a form to create one. */
export function TeamsPage() {
  const id = useId();
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const teams = useQuery({ queryKey: teamKeys.all(projectId), queryFn: () => admin.listServerTeams() });
  return (
    <>
      <section className="dashboard-card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Teams</h2>
        <QueryState query={teams} what="the teams" isEmpty={(list) => list.length === 0} empty={<p>No teams yet. Create the first one below.</p>}>
          {(list) => <TeamsTable projectId={projectId} teams={list} />}
        </QueryState>
      </section>
      <CreateTeamCard projectId={projectId} admin={admin} />
    </>
  );
}
