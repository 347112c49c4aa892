import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { errorMessage } from "../../../error-message.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { userPartKey, usersKey } from "./user-queries.js";

/**
 * The project permissions granted to the user directly (those they get through another permission follow from
 * these), with a form to grant one of the project's definitions and a way to revoke each.
 */
export function UserPermissionsCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  const key = userPartKey(projectId, userId, "permissions");
  const granted = useQuery({ queryKey: key, queryFn: () => admin.listUserProjectPermissions(userId) });
  const definitions = useQuery({ queryKey: [...usersKey(projectId), "project-permission-definitions"], queryFn: () => admin.listPermissionDefinitions("project") });
  const [choice, setChoice] = useState("");
  const grant = useMutation({
    mutationFn: (permissionId: string) => admin.grantUserProjectPermission(userId, permissionId),
    onSuccess: async () => {
      setChoice("");
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const revoke = useConfirmedAction({
    action: (permissionId: string) => admin.revokeUserProjectPermission(userId, permissionId),
    onDone: () => queryClient.invalidateQueries({ queryKey: key }),
    failure: "revoke the permission",
  });
  const grantable = (definitions.data ?? []).filter((definition) => !granted.data?.includes(definition.id));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (choice) grant.mutate(choice);
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Project permissions</h2>
      <QueryState query={granted} what="the user's permissions" isEmpty={(items) => items.length === 0} empty={<p>No project permissions are granted to this user.</p>}>
        {(items) => (
          <ul className="dashboard-list" aria-labelledby={`${id}-title`}>
            {items.map((permissionId) => (
              <li key={permissionId}>
                <code className="dashboard-code">{permissionId}</code>
                <button type="button" className="dashboard-secondary dashboard-small-button" aria-label={`Revoke ${permissionId}`} onClick={() => revoke.ask(permissionId)}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {definitions.isError ? (
        <p role="alert" className="dashboard-error">
          Could not load the project's permissions: {errorMessage(definitions.error)}
        </p>
      ) : definitions.isSuccess && definitions.data.length === 0 ? (
        <p className="dashboard-muted">
          The project defines no project permissions yet: add them on the <Link to="/projects/$projectId/permissions" params={{ projectId }}>Permissions</Link> page.
        </p>
      ) : definitions.isSuccess && grantable.length > 0 ? (
        <form className="dashboard-inline-form" onSubmit={submit}>
          <div className="dashboard-field">
            <label htmlFor={`${id}-grant`}>Permission to grant</label>
            <select id={`${id}-grant`} value={choice} onChange={(event) => setChoice(event.target.value)}>
              <option value="">Choose a permission</option>
              {grantable.map((definition) => (
                <option key={definition.id} value={definition.id}>
                  {definition.description ? `${definition.id}: ${definition.description}` : definition.id}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={!choice || grant.isPending}>
            {grant.isPending ? "Granting…" : "Grant permission"}
          </button>
        </form>
      ) : null}
      <FailureAlert action="grant the permission" error={grant.error} />
      <ConfirmDialog {...revoke.dialog} title={`Revoke ${revoke.pending ?? "the permission"}?`} confirmLabel="Revoke permission">
        <p>The user loses it, and every permission it contains that they hold through it alone, at their next token refresh.</p>
      </ConfirmDialog>
    </section>
  );
}
