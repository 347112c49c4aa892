import type { AdminApp, ServerTeam } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { errorMessage, teamKeys } from "./team-queries.js";

/** Deletes the team (with its memberships and invitations) once its name is typed, then goes back to the teams. */
export function DeleteTeamCard({ projectId, admin, team }: { projectId: string; admin: AdminApp; team: ServerTeam }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => admin.deleteServerTeam(team.id),
    onSuccess: async () => {
      setOpen(false);
      await navigate({ to: "/projects/$projectId/teams", params: { projectId } });
      queryClient.removeQueries({ queryKey: teamKeys.team(projectId, team.id) });
      await queryClient.invalidateQueries({ queryKey: teamKeys.all(projectId), exact: true });
    },
  });
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete this team</h2>
      <p>The team, its memberships, its members' permissions in it and its pending invitations are deleted. Its members' user accounts stay.</p>
      <button type="button" className="dashboard-danger" onClick={() => (remove.reset(), setOpen(true))}>
        Delete team
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${team.displayName}?`}
        confirmLabel="Delete team"
        typeToConfirm={team.displayName}
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onConfirm={() => remove.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
