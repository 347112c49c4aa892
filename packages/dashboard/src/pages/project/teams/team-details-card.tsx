import type { AdminApp, ServerTeam } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { teamName } from "./team-forms.js";
import { errorMessage, teamKeys } from "./team-queries.js";

/** The team's name (renamed here), id and creation date. */
export function TeamDetailsCard({ projectId, admin, team }: { projectId: string; admin: AdminApp; team: ServerTeam }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(team.displayName);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (displayName: string) => admin.updateServerTeam(team.id, { displayName }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(teamKeys.team(projectId, team.id), updated);
      await queryClient.invalidateQueries({ queryKey: teamKeys.all(projectId), exact: true });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = teamName.safeParse(name);
    setProblem(parsed.success ? null : (parsed.error.issues[0]?.message ?? "This name cannot be used."));
    if (parsed.success) rename.mutate(parsed.data);
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Team details</h2>
      <p className="dashboard-muted">
        Team id <code className="dashboard-code">{team.id}</code>, created {team.createdAt.toLocaleString()}.
      </p>
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <div className="dashboard-field">
          <label htmlFor={`${id}-name`}>Team name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-name-error` : undefined}
            autoComplete="off"
          />
          {problem ? (
            <span id={`${id}-name-error`} className="dashboard-error">
              {problem}
            </span>
          ) : null}
        </div>
        {rename.isError ? (
          <p role="alert" className="dashboard-error">
            Could not rename the team: {errorMessage(rename.error)}
          </p>
        ) : null}
        {rename.isSuccess && !rename.isPending ? <p role="status">Saved.</p> : null}
        <button type="submit" disabled={rename.isPending}>
          {rename.isPending ? "Saving…" : "Save name"}
        </button>
      </form>
    </section>
  );
}
