import type { AdminApp, ServerTeam } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { TextField } from "../../../components/text-field.js";
import { teamName } from "./team-forms.js";
import { teamKeys } from "./team-queries.js";

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
        <TextField id={`${id}-name`} label="Team name" autoComplete="off" error={problem ?? undefined} value={name} onChange={setName} />
        <FailureAlert action="rename the team" error={rename.error} />
        {rename.isSuccess && !rename.isPending ? <p role="status">Saved.</p> : null}
        <button type="submit" disabled={rename.isPending}>
          {rename.isPending ? "Saving…" : "Save name"}
        </button>
      </form>
    </section>
  );
}
