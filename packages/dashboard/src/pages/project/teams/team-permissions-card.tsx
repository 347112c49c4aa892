import type { AdminApp, TeamPermissionGrant } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { memberLabel } from "./member-label.js";
import { useTeamMembers } from "./team-members-card.js";
import { permissionDefinitionsKey, teamKeys } from "./team-queries.js";

/**
 * Each member's team permissions granted directly in this team (those contained in them follow), granted
 * and revoked here. The permissions themselves are defined on the Permissions page.
 */
export function TeamPermissionsCard({ projectId, admin, teamId }: { projectId: string; admin: AdminApp; teamId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const members = useTeamMembers(projectId, admin, teamId);
  const grants = useQuery({ queryKey: teamKeys.grants(projectId, teamId), queryFn: () => admin.listTeamPermissionGrants(teamId) });
  const definitions = useQuery({ queryKey: permissionDefinitionsKey(projectId, "team"), queryFn: () => admin.listPermissionDefinitions("team") });
  const [member, setMember] = useState("");
  const [permission, setPermission] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: teamKeys.grants(projectId, teamId) });
  const grant = useMutation({
    mutationFn: (input: { userId: string; permissionId: string }) => admin.grantTeamPermission(teamId, input.userId, input.permissionId),
    onSuccess: refresh,
  });
  const revoke = useConfirmedAction({
    action: (input: TeamPermissionGrant) => admin.revokeTeamPermission(teamId, input.userId, input.permissionId),
    onDone: refresh,
  });
  const revoking = revoke.pending;

  function submit(event: FormEvent) {
    event.preventDefault();
    const problemText = !member ? "Choose a member." : !permission ? "Choose a permission." : null;
    setProblem(problemText);
    if (!problemText) grant.mutate({ userId: member, permissionId: permission });
  }

  const nameOf = (userId: string) => {
    const found = members.data?.find((m) => m.userId === userId);
    return found ? memberLabel(found) : userId;
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Permissions in this team</h2>
      <QueryState query={members} what="the members">
        {(memberList) =>
          memberList.length === 0 ? (
            <p>Add a member to grant them permissions in this team.</p>
          ) : (
            <QueryState query={grants} what="the members' permissions">
              {(grantList) => (
                <>
                  <SimpleTable columns={["Member", "Granted permissions"]} caption="Permissions granted directly to each member" scrollClassName="teams-scroll">
                    {memberList.map((m) => {
                      const own = grantList.filter((g) => g.userId === m.userId);
                      return (
                        <tr key={m.userId}>
                          <td>{memberLabel(m)}</td>
                          <td>
                            {own.length === 0 ? (
                              <span className="dashboard-muted">None</span>
                            ) : (
                              <ul className="teams-chips" aria-label={`Permissions of ${memberLabel(m)}`}>
                                {own.map((g) => (
                                  <li key={g.permissionId} className="teams-chip">
                                    {g.permissionId}
                                    <button
                                      type="button"
                                      onClick={() => revoke.ask(g)}
                                      aria-label={`Revoke ${g.permissionId} from ${memberLabel(m)}`}
                                    >
                                      ×
                                    </button>
                                  </li>
                                ))}
                              </ul>
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </SimpleTable>
                  <form className="dashboard-form" onSubmit={submit} noValidate aria-labelledby={`${id}-grant`}>
                    <h3 id={`${id}-grant`}>Grant a permission</h3>
                    <div className="dashboard-inline-form">
                      <div className="dashboard-field">
                        <label htmlFor={`${id}-member`}>Member</label>
                        <select id={`${id}-member`} value={member} onChange={(event) => setMember(event.target.value)}>
                          <option value="">Choose a member</option>
                          {memberList.map((m) => (
                            <option key={m.userId} value={m.userId}>
                              {memberLabel(m)}
                            </option>
                          ))}
                        </select>
                      </div>
                      <div className="dashboard-field">
                        <label htmlFor={`${id}-permission`}>Permission</label>
                        <select id={`${id}-permission`} value={permission} onChange={(event) => setPermission(event.target.value)}>
                          <option value="">Choose a permission</option>
                          {(definitions.data ?? []).map((definition) => (
                            <option key={definition.id} value={definition.id}>
                              {definition.id}
                            </option>
                          ))}
                        </select>
                      </div>
                      <button type="submit" disabled={grant.isPending}>
                        {grant.isPending ? "Granting…" : "Grant"}
                      </button>
                    </div>
                    {problem ? (
                      <p role="alert" className="dashboard-error">
                        {problem}
                      </p>
                    ) : null}
                    <FailureAlert action="load the team permissions" error={definitions.error} />
                    <FailureAlert action="grant the permission" error={grant.error} />
                  </form>
                </>
              )}
            </QueryState>
          )
        }
      </QueryState>
      <ConfirmDialog {...revoke.dialog} title="Revoke this permission?" confirmLabel="Revoke permission">
        <p>
          {revoking ? `${nameOf(revoking.userId)} loses ${revoking.permissionId} in this team, and what it contains unless another permission holds it.` : ""}
        </p>
      </ConfirmDialog>
    </section>
  );
}
