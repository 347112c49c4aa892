import type { AdminApp } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { createTeamForm, fieldErrors, type CreateTeamInput } from "./team-forms.js";
import { errorMessage, teamKeys } from "./team-queries.js";

const EMPTY: CreateTeamInput = { displayName: "", creatorUserId: "" };

/** Creates a team (optionally with a user as its creator, who joins it with the creator defaults), then opens it. */
export function CreateTeamCard({ projectId, admin }: { projectId: string; admin: AdminApp }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [input, setInput] = useState<CreateTeamInput>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof CreateTeamInput, string>>>({});
  const create = useMutation({
    mutationFn: (values: { displayName: string; creatorUserId?: string }) => admin.createServerTeam(values),
    onSuccess: async (team) => {
      setInput(EMPTY);
      await queryClient.invalidateQueries({ queryKey: teamKeys.all(projectId) });
      await navigate({ to: "/projects/$projectId/teams/$teamId", params: { projectId, teamId: team.id } });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createTeamForm.safeParse(input);
    setErrors(parsed.success ? {} : fieldErrors<keyof CreateTeamInput>(parsed.error));
    if (parsed.success) create.mutate(parsed.data);
  }

  const field = (name: keyof CreateTeamInput, label: string, hint: string) => (
    <div className="dashboard-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        value={input[name]}
        onChange={(event) => setInput({ ...input, [name]: event.target.value })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`${id}-${name}-note`}
        autoComplete="off"
      />
      <span id={`${id}-${name}-note`} className={errors[name] ? "dashboard-error" : "dashboard-muted"}>
        {errors[name] ?? hint}
      </span>
    </div>
  );

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a team</h2>
      <form className="dashboard-form" onSubmit={submit} noValidate>
        {field("displayName", "Team name", "What members and the app see.")}
        {field("creatorUserId", "Creator's user id (optional)", "This user joins the team with the team-creator default permissions. Leave it empty for a team without members.")}
        {create.isError ? (
          <p role="alert" className="dashboard-error">
            Could not create the team: {errorMessage(create.error)}
          </p>
        ) : null}
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create team"}
        </button>
      </form>
    </section>
  );
}
