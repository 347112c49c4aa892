import type { ContactChannel, UserContactChannelUpdate } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { VerifiedLabel } from "./user-display.js";
import { userPartKey, usersKey } from "./user-queries.js";

/**
 * The user's email addresses. An admin may mark one verified (e.g. checked by other means) or not, and make
 * one the primary email (the one the user record shows and mail goes to).
 */
export function UserContactChannelsCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const channels = useQuery({ queryKey: userPartKey(projectId, userId, "channels"), queryFn: () => admin.listUserContactChannels(userId) });
  const update = useMutation({
    mutationFn: ({ channel, change }: { channel: ContactChannel; change: UserContactChannelUpdate }) => admin.updateUserContactChannel(userId, channel.id, change),
    // The user's primary email and its verification come from the channels: reload both, and the list's row.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey(projectId) }),
  });

  return (
    <section className="dashboard-card" aria-labelledby="user-channels-title">
      <h2 id="user-channels-title">Emails</h2>
      <QueryState query={channels} what="the user's emails" isEmpty={(items) => items.length === 0} empty={<p>This user has no email addresses.</p>}>
        {(items) => (
          <SimpleTable columns={["Email", "Used to sign in", "Actions"]} caption="The user's email addresses" className="users-table-medium">
            {items.map((channel) => (
              <tr key={channel.id}>
                <td>
                  {channel.value} {channel.isPrimary ? <span className="users-tag users-tag-ok">Primary</span> : null} <VerifiedLabel verified={channel.isVerified} />
                </td>
                <td>{channel.usedForAuth ? "Yes" : "No"}</td>
                <td>
                  <div className="users-row-actions">
                    <button
                      type="button"
                      className="dashboard-secondary dashboard-small-button"
                      disabled={update.isPending}
                      onClick={() => update.mutate({ channel, change: { isVerified: !channel.isVerified } })}
                      aria-label={`${channel.isVerified ? "Mark unverified" : "Mark verified"}: ${channel.value}`}
                    >
                      {channel.isVerified ? "Mark unverified" : "Mark verified"}
                    </button>
                    {channel.isPrimary ? null : (
                      <button
                        type="button"
                        className="dashboard-secondary dashboard-small-button"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ channel, change: { isPrimary: true } })}
                        aria-label={`Make primary: ${channel.value}`}
                      >
                        Make primary
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </SimpleTable>
        )}
      </QueryState>
      <FailureAlert action="change the email" error={update.error} />
    </section>
  );
}
