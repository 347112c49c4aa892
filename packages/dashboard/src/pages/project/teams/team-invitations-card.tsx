import type { AdminApp, TeamInvitation } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { invitationForm } from "./team-forms.js";
import { teamKeys } from "./team-queries.js";

/**
 * The team's pending invitations, a form that mails a new one (its link opens the project's team-invitation
 * page hosted by the server), and revocation after a confirmation.
 */
export function TeamInvitationsCard({ projectId, admin, teamId }: { projectId: string; admin: AdminApp; teamId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const invitations = useQuery({ queryKey: teamKeys.invitations(projectId, teamId), queryFn: () => admin.listServerTeamInvitations(teamId) });
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(projectId, teamId) });
  const send = useMutation({
    mutationFn: (recipient: string) => admin.sendServerTeamInvitation(teamId, { email: recipient }),
    onSuccess: async () => {
      setEmail("");
      await refresh();
    },
  });
  const revoke = useConfirmedAction({
    action: (invitation: TeamInvitation) => admin.revokeServerTeamInvitation(teamId, invitation.id),
    onDone: refresh,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = invitationForm.safeParse({ email });
    setProblem(parsed.success ? null : (parsed.error.issues[0]?.message ?? "Enter an email address."));
    if (parsed.success) send.mutate(parsed.data.email);
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invitations</h2>
      <QueryState query={invitations} what="the invitations" isEmpty={(list) => list.length === 0} empty={<p>No pending invitations.</p>}>
        {(list) => (
          <ul className="dashboard-list" aria-label="Pending invitations">
            {list.map((invitation) => (
              <li key={invitation.id}>
                <span>
                  {invitation.recipientEmail} <span className="dashboard-muted">(expires {invitation.expiresAt.toLocaleDateString()})</span>
                </span>
                <button
                  type="button"
                  className="dashboard-secondary dashboard-small-button"
                  onClick={() => revoke.ask(invitation)}
                  aria-label={`Revoke the invitation of ${invitation.recipientEmail}`}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <form className="dashboard-form" onSubmit={submit} noValidate aria-labelledby={`${id}-send`}>
        <h3 id={`${id}-send`}>Invite someone</h3>
        <div className="dashboard-inline-form">
          <div className="dashboard-field">
            <label htmlFor={`${id}-email`}>Email address</label>
            <input
              id={`${id}-email`}
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-email-note`}
              autoComplete="off"
            />
          </div>
          <button type="submit" disabled={send.isPending}>
            {send.isPending ? "Sending…" : "Send invitation"}
          </button>
        </div>
        <span id={`${id}-email-note`} className={problem ? "dashboard-error" : "dashboard-muted"}>
          {problem ?? "They get an email with a link; once signed in, they join with the team-member default permissions."}
        </span>
        <FailureAlert action="send the invitation" error={send.error} />
        {send.isSuccess ? <p role="status">Invitation sent.</p> : null}
      </form>
      <ConfirmDialog {...revoke.dialog} title="Revoke this invitation?" confirmLabel="Revoke invitation">
        <p>The link sent to {revoke.pending?.recipientEmail} stops working.</p>
      </ConfirmDialog>
    </section>
  );
}
