import type { AdminApp, ServerTeamMember } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { AddMemberForm } from "./add-member-form.js";
import { memberLabel } from "./member-label.js";
import { errorMessage, teamKeys } from "./team-queries.js";

export function useTeamMembers(projectId: string, admin: AdminApp, teamId: string) {
  return useQuery({ queryKey: teamKeys.members(projectId, teamId), queryFn: () => admin.listServerTeamMembers(teamId) });
}

/** The team's members with their users, a form to add one, and removal after a confirmation. */
export function TeamMembersCard({ projectId, admin, teamId }: { projectId: string; admin: AdminApp; teamId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const members = useTeamMembers(projectId, admin, teamId);
  const [removing, setRemoving] = useState<ServerTeamMember | null>(null);
  // A membership change changes the members and their grants (a member's permissions go with them).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamKeys.members(projectId, teamId) }),
      queryClient.invalidateQueries({ queryKey: teamKeys.grants(projectId, teamId) }),
    ]).then(() => undefined);
  const remove = useMutation({
    mutationFn: (userId: string) => admin.removeServerTeamMember(teamId, userId),
    onSuccess: async () => {
      setRemoving(null);
      await refresh();
    },
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Members</h2>
      <QueryState query={members} what="the members">
        {(list) => (
          <>
            {list.length === 0 ? (
              <p>This team has no members yet.</p>
            ) : (
              <div className="dashboard-table-scroll teams-scroll">
                <table className="dashboard-table">
                  <caption className="teams-visually-hidden">The team's members</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">User id</th>
                      <th scope="col">
                        <span className="teams-visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((member) => (
                      <tr key={member.userId}>
                        <td>
                          <Link to="/projects/$projectId/users/$userId" params={{ projectId, userId: member.userId }}>
                            {memberLabel(member)}
                          </Link>
                        </td>
                        <td>{member.user.primaryEmail ?? <span className="dashboard-muted">None</span>}</td>
                        <td>
                          <code className="dashboard-code">{member.userId}</code>
                        </td>
                        <td>
                          <button
                            type="button"
                            className="dashboard-secondary teams-small-button"
                            onClick={() => (remove.reset(), setRemoving(member))}
                            aria-label={`Remove ${memberLabel(member)}`}
                          >
                            Remove
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <AddMemberForm projectId={projectId} admin={admin} teamId={teamId} members={list} onAdded={refresh} />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this member?"
        confirmLabel="Remove member"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onConfirm={() => removing && remove.mutate(removing.userId)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          {removing ? memberLabel(removing) : ""} leaves the team and loses their permissions in it. Their user account stays.
        </p>
      </ConfirmDialog>
    </section>
  );
}
