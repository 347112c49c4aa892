import type { AdminApp, ServerTeamMember } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { AddMemberForm } from "./add-member-form.js";
import { memberLabel } from "./member-label.js";
import { teamKeys } from "./team-queries.js";

export function useTeamMembers(projectId: string, admin: AdminApp, teamId: string) {
  return useQuery({ queryKey: teamKeys.members(projectId, teamId), queryFn: () => admin.listServerTeamMembers(teamId) });
}

/** The team's members with their users, a form to add one, and removal after a confirmation. */
export function TeamMembersCard({ projectId, admin, teamId }: { projectId: string; admin: AdminApp; teamId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const members = useTeamMembers(projectId, admin, teamId);
  // A membership change changes the members and their grants (a member's permissions go with them).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamKeys.members(projectId, teamId) }),
      queryClient.invalidateQueries({ queryKey: teamKeys.grants(projectId, teamId) }),
    ]).then(() => undefined);
  const remove = useConfirmedAction({
    action: (member: ServerTeamMember) => admin.removeServerTeamMember(teamId, member.userId),
    onDone: refresh,
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
              <SimpleTable
                columns={["Name", "Email", "User id", <span className="dashboard-visually-hidden">Actions</span>]}
                caption="The team's members"
                scrollClassName="teams-scroll"
              >
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
                        className="dashboard-secondary dashboard-small-button"
                        onClick={() => remove.ask(member)}
                        aria-label={`Remove ${memberLabel(member)}`}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </SimpleTable>
            )}
            <AddMemberForm projectId={projectId} admin={admin} teamId={teamId} members={list} onAdded={refresh} />
          </>
        )}
      </QueryState>
      <ConfirmDialog {...remove.dialog} title="Remove this member?" confirmLabel="Remove member">
        <p>
          {remove.pending ? memberLabel(remove.pending) : ""} leaves the team and loses their permissions in it. Their user account stays.
        </p>
      </ConfirmDialog>
    </section>
  );
}
