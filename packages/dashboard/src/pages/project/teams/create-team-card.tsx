import type { AdminApp } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useId } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { TextField } from "../../../components/text-field.js";
import { useCheckedInput } from "../../../use-checked-input.js";
import { createTeamForm, type CreateTeamInput } from "./team-forms.js";
import { teamKeys } from "./team-queries.js";

const EMPTY: CreateTeamInput = { displayName: "", creatorUserId: "" };

/** Creates a team (optionally with a user as its creator, who joins it with the creator defaults), then opens it. */
export function CreateTeamCard({ projectId, admin }: { projectId: string; admin: AdminApp }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { input, setInput, errors, submitWith } = useCheckedInput(createTeamForm, EMPTY);
  const create = useMutation({
    mutationFn: (values: { displayName: string; creatorUserId?: string }) => admin.createServerTeam(values),
    onSuccess: async (team) => {
      setInput(EMPTY);
      await queryClient.invalidateQueries({ queryKey: teamKeys.all(projectId) });
      await navigate({ to: "/projects/$projectId/teams/$teamId", params: { projectId, teamId: team.id } });
    },
  });

  const field = (name: keyof CreateTeamInput, label: string, hint: string) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      autoComplete="off"
      hint={hint}
      error={errors[name]}
      value={input[name]}
      onChange={(value) => setInput({ ...input, [name]: value })}
    />
  );

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a team</h2>
      <form className="dashboard-form" onSubmit={submitWith((values) => create.mutate(values))} noValidate>
        {field("displayName", "Team name", "What members and the app see.")}
        {field("creatorUserId", "Creator's user id (optional)", "This user joins the team with the team-creator default permissions. Leave it empty for a team without members.")}
        <FailureAlert action="create the team" error={create.error} />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create team"}
        </button>
      </form>
    </section>
  );
}
