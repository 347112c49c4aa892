import type { AdminApp, AdminProject, Team } from "@latchkey/core";
import { useApp } from "@latchkey/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { z } from "zod";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { projectKey } from "../../../project-admin.js";
import { ownedProjectsKey } from "../../../queries.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { ownerTeamsKey } from "./project-query.js";

const transferForm = z.object({ newTeamId: z.string().min(1, "Choose the team to move the project to.") });

/**
 * Moves the project to another of the owner's teams (`POST /internal/projects/transfer`), listed from the
 * dashboard's signed-in user. The owner must administer the team that owns it now; the server says so if not.
 */
export function TransferProject({ project, admin, userId }: { project: AdminProject; admin: AdminApp; userId: string }) {
  const app = useApp();
  const id = useId();
  const teams = useQuery({ queryKey: ownerTeamsKey(userId), queryFn: () => app.listTeams() });
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Transfer to another team</h2>
      <QueryState query={teams} what="your teams">
        {(list) => <TransferForm project={project} admin={admin} userId={userId} teams={list} />}
      </QueryState>
    </section>
  );
}

function TransferForm({ project, admin, userId, teams }: { project: AdminProject; admin: AdminApp; userId: string; teams: Team[] }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [newTeamId, setNewTeamId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const owner = teams.find((team) => team.id === project.ownerTeamId);
  const others = teams.filter((team) => team.id !== project.ownerTeamId);
  const target = others.find((team) => team.id === newTeamId);
  const transfer = useConfirmedAction({
    action: (teamId: string) => admin.transferProject(teamId),
    failure: "transfer the project",
    onDone: async () => {
      setNewTeamId("");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKey(project.id) }),
        queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) }),
      ]);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = transferForm.safeParse({ newTeamId });
    setError(parsed.success ? null : parsed.error.issues[0]!.message);
    if (parsed.success) transfer.ask(parsed.data.newTeamId);
  }

  const ownedBy = (
    <p>
      Owned by <strong>{owner?.displayName ?? "a team you are not a member of"}</strong>.
    </p>
  );
  if (others.length === 0)
    return (
      <>
        {ownedBy}
        <p className="dashboard-muted">You belong to no other team yet: a project can only move to a team you are a member of.</p>
      </>
    );
  // The dialog holds a form of its own, so it sits beside this form, not in it.
  return (
    <>
      <form onSubmit={submit} noValidate className="dashboard-form">
        {ownedBy}
        <div className="dashboard-field">
          <label htmlFor={`${id}-team`}>New owner team</label>
          <select
            id={`${id}-team`}
            value={newTeamId}
            onChange={(event) => setNewTeamId(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-team-error` : undefined}
          >
            <option value="">Choose a team…</option>
            {others.map((team) => (
              <option key={team.id} value={team.id}>
                {team.displayName}
              </option>
            ))}
          </select>
          {error ? (
            <span id={`${id}-team-error`} className="dashboard-error">
              {error}
            </span>
          ) : null}
        </div>
        <div className="settings-submit">
          <button type="submit" className="dashboard-secondary">
            Transfer project
          </button>
          <span role="status" className="dashboard-muted">
            {transfer.mutation.isSuccess ? "Transferred." : ""}
          </span>
        </div>
      </form>
      <ConfirmDialog {...transfer.dialog} title={`Transfer ${project.displayName}?`} confirmLabel="Transfer">
        <p>
          The project moves to <strong>{target?.displayName}</strong>: its members administer it from then on, and members of{" "}
          <strong>{owner?.displayName ?? "the current team"}</strong> who are not in it lose access.
        </p>
      </ConfirmDialog>
    </>
  );
}
