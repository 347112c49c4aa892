import type { AdminApp, PermissionDefinition, PermissionScope } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { errorMessage } from "../../../error-message.js";
import { adminProjectKey } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { permissionDefinitionsKey, teamKeys } from "../teams/team-queries.js";
import { PermissionEditor } from "./permission-editor.js";
import type { PermissionFormValues } from "./permission-form.js";
import { PermissionGraph } from "./permission-graph.js";

const SCOPES = {
  team: { title: "Team permissions", noun: "team permission", intro: "Held by a member within one team. The $ permissions are the system's own: shown, not editable." },
  project: { title: "Project permissions", noun: "project permission", intro: "Held by a user across the whole project." },
} as const;

export function usePermissionDefinitions(projectId: string, admin: AdminApp, scope: PermissionScope) {
  return useQuery({ queryKey: permissionDefinitionsKey(projectId, scope), queryFn: () => admin.listPermissionDefinitions(scope) });
}

/** One scope's permission definitions: the containment graph, the list, and create / edit / delete. */
export function PermissionScopeCard({ projectId, admin, scope }: { projectId: string; admin: AdminApp; scope: PermissionScope }) {
  const id = useId();
  const { title, noun, intro } = SCOPES[scope];
  const queryClient = useQueryClient();
  const definitions = usePermissionDefinitions(projectId, admin, scope);
  const [editing, setEditing] = useState<PermissionDefinition | null>(null);
  const [createCount, setCreateCount] = useState(0);
  // A rename or deletion also changes the default lists and the grants that name the permission.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: permissionDefinitionsKey(projectId, scope) }),
      queryClient.invalidateQueries({ queryKey: adminProjectKey(projectId) }),
      queryClient.invalidateQueries({ queryKey: teamKeys.all(projectId) }),
    ]);
  const toWire = (values: PermissionFormValues) => ({ id: values.id, description: values.description, containedPermissionIds: values.containedPermissionIds });
  const create = useMutation({
    mutationFn: (values: PermissionFormValues) => admin.createPermissionDefinition(scope, toWire(values)),
    onSuccess: async () => {
      setCreateCount((count) => count + 1);
      await refresh();
    },
  });
  const update = useMutation({
    mutationFn: ({ permissionId, values }: { permissionId: string; values: PermissionFormValues }) => admin.updatePermissionDefinition(scope, permissionId, toWire(values)),
    onSuccess: async () => {
      setEditing(null);
      await refresh();
    },
  });
  const remove = useConfirmedAction({
    action: (definition: PermissionDefinition) => admin.deletePermissionDefinition(scope, definition.id),
    onDone: refresh,
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="dashboard-muted">{intro}</p>
      <QueryState query={definitions} what={`the ${noun}s`}>
        {(list) => (
          <>
            {list.length === 0 ? (
              <p>No {noun}s yet. Create the first one below.</p>
            ) : (
              <>
                <PermissionGraph definitions={list} label={`How the ${noun}s contain each other`} />
                <SimpleTable
                  columns={["Permission", "Description", "Contains", <span className="dashboard-visually-hidden">Actions</span>]}
                  caption={title}
                  scrollClassName="teams-scroll"
                >
                  {list.map((definition) => (
                    <tr key={definition.id}>
                      <td>
                        <code className="dashboard-code">{definition.id}</code>
                      </td>
                      <td className="teams-description">{definition.description ?? <span className="dashboard-muted">None</span>}</td>
                      <td>
                        {definition.containedPermissionIds.length ? (
                          definition.containedPermissionIds.map((contained, index) => (
                            <span key={contained}>
                              {index > 0 ? ", " : null}
                              <code className="dashboard-code">{contained}</code>
                            </span>
                          ))
                        ) : (
                          <span className="dashboard-muted">Nothing</span>
                        )}
                      </td>
                      <td>
                        {definition.isSystem ? (
                          <span className="dashboard-muted">System permission</span>
                        ) : (
                          <div className="dashboard-actions">
                            <button
                              type="button"
                              className="dashboard-secondary dashboard-small-button"
                              onClick={() => (update.reset(), setEditing(definition))}
                              aria-label={`Edit ${definition.id}`}
                            >
                              Edit
                            </button>
                            <button
                              type="button"
                              className="dashboard-secondary dashboard-small-button"
                              onClick={() => remove.ask(definition)}
                              aria-label={`Delete ${definition.id}`}
                            >
                              Delete
                            </button>
                          </div>
                        )}
                      </td>
                    </tr>
                  ))}
                </SimpleTable>
              </>
            )}
            {editing ? (
              <PermissionEditor
                key={`edit-${editing.id}`}
                title={`Edit ${editing.id}`}
                initial={editing}
                candidates={list.filter((d) => d.id !== editing.id)}
                submitLabel="Save permission"
                busy={update.isPending}
                error={update.isError ? `Could not save the permission: ${errorMessage(update.error)}` : null}
                onSubmit={(values) => update.mutate({ permissionId: editing.id, values })}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <PermissionEditor
                key={`create-${createCount}`}
                title={`Create a ${noun}`}
                candidates={list}
                submitLabel="Create permission"
                busy={create.isPending}
                error={create.isError ? `Could not create the permission: ${errorMessage(create.error)}` : null}
                onSubmit={(values) => create.mutate(values)}
              />
            )}
          </>
        )}
      </QueryState>
      <ConfirmDialog {...remove.dialog} title={`Delete ${remove.pending?.id ?? "this permission"}?`} confirmLabel="Delete permission">
        <p>Everyone who was granted it loses it (and what it contains, unless another permission holds that).</p>
      </ConfirmDialog>
    </section>
  );
}
