import type { UserOAuthLink } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { userKey, userPartKey } from "./user-queries.js";

/** The provider accounts (GitHub, Google, …) linked to the user, each of which the admin may unlink. */
export function UserOAuthLinksCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  const key = userPartKey(projectId, userId, "oauth-links");
  const links = useQuery({ queryKey: key, queryFn: () => admin.listUserOAuthLinks(userId) });
  const unlink = useConfirmedAction({
    action: (link: UserOAuthLink) => admin.deleteUserOAuthLink(userId, link.id),
    // The profile lists the user's ways to sign in, which the link was one of.
    onDone: () => Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: userKey(projectId, userId), exact: true })]),
    failure: "unlink the account",
  });
  const unlinking = unlink.pending;

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Linked accounts</h2>
      <QueryState query={links} what="the user's linked accounts" isEmpty={(items) => items.length === 0} empty={<p>No provider accounts are linked to this user.</p>}>
        {(items) => (
          <SimpleTable
            columns={["Provider", "Account id", "Email", "Signs in", "Actions"]}
            caption="Provider accounts linked to the user"
            region="Linked accounts (scrolls sideways on narrow screens)"
            className="users-table-medium"
          >
            {items.map((link) => (
              <tr key={link.id}>
                <td>{link.providerId}</td>
                <td>
                  <code className="dashboard-code">{link.accountId}</code>
                </td>
                <td>{link.email ?? <span className="dashboard-muted">None</span>}</td>
                <td>{link.allowSignIn ? "Yes" : "No"}</td>
                <td>
                  <button
                    type="button"
                    className="dashboard-secondary dashboard-small-button"
                    aria-label={`Unlink the ${link.providerId} account ${link.accountId}`}
                    onClick={() => unlink.ask(link)}
                  >
                    Unlink
                  </button>
                </td>
              </tr>
            ))}
          </SimpleTable>
        )}
      </QueryState>
      <ConfirmDialog {...unlink.dialog} title={`Unlink this ${unlinking?.providerId ?? "provider"} account?`} confirmLabel="Unlink account">
        <p>
          The user can no longer sign in with the {unlinking?.providerId} account <code className="dashboard-code">{unlinking?.accountId}</code>, and
          your app loses the access it was given there. If it was their only way to sign in, they are locked out until they get another one.
        </p>
      </ConfirmDialog>
    </section>
  );
}
