import type { UserSession } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { DateTime } from "./user-display.js";
import { userPartKey } from "./user-queries.js";

/**
 * The user's live sessions (each a browser or device they signed in on, or an impersonation session an admin
 * made), newest first. Revoking one stops its refresh token: that device is signed out within minutes, when
 * its current access token runs out.
 */
export function UserSessionsCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: userPartKey(projectId, userId, "sessions"), queryFn: () => admin.listUserSessions(userId) });
  const revoke = useConfirmedAction({
    action: (session: UserSession) => admin.revokeUserSession(userId, session.id),
    onDone: () => queryClient.invalidateQueries({ queryKey: userPartKey(projectId, userId, "sessions") }),
    failure: "revoke the session",
  });

  return (
    <section className="dashboard-card" aria-labelledby="user-sessions-title">
      <h2 id="user-sessions-title">Sessions</h2>
      <QueryState query={sessions} what="the user's sessions" isEmpty={(items) => items.length === 0} empty={<p>This user has no active sessions.</p>}>
        {(items) => (
          <SimpleTable columns={["Started", "Last used", "From", "Actions"]} caption="The user's active sessions" className="users-table-medium">
            {items.map((session) => (
              <tr key={session.id}>
                <td>
                  <DateTime value={session.createdAt} />
                  {session.isImpersonation ? <span className="users-tag">Impersonation</span> : null}
                </td>
                <td>
                  <DateTime value={session.lastUsedAt} />
                </td>
                <td>{sessionOrigin(session)}</td>
                <td>
                  <button type="button" className="dashboard-secondary dashboard-small-button" onClick={() => revoke.ask(session)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </SimpleTable>
        )}
      </QueryState>
      <ConfirmDialog {...revoke.dialog} title="Revoke this session?" confirmLabel="Revoke session">
        <p>The device using it is signed out when its current access token runs out (within minutes). The user can sign in again.</p>
      </ConfirmDialog>
    </section>
  );
}

/** Where a session was last used from: its address and country, and its browser, as far as they are known. */
function sessionOrigin(session: UserSession): string {
  const place = session.geoInfo ? [session.geoInfo.ip, session.geoInfo.countryCode].filter(Boolean).join(", ") : "";
  const parts = [place, session.userAgent ?? ""].filter(Boolean);
  return parts.length ? parts.join(" · ") : "Not known yet";
}
