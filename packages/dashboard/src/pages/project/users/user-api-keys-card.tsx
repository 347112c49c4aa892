import type { UserApiKey, UserApiKeyFirstView } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { adminProjectKey, useProjectAdmin } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { Copyable } from "../project-config/copy-button.js";
// The copy box's and the shown-once frame's styles.
import "../project-config/project-config.css";
import { UserApiKeyForm } from "./user-api-key-form.js";
import { DateTime } from "./user-display.js";
import { userPartKey } from "./user-queries.js";

/**
 * The user's API keys, when the project allows them: listed with their last characters only, created here (the
 * whole key is shown once, right after) and revoked after confirming. A revoked key stays listed, as the server keeps it.
 */
export function UserApiKeysCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  // The same query as the project layout's, so this reads the cached project.
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject() });
  const enabled = project.data?.config.allow_user_api_keys === true;
  const key = userPartKey(projectId, userId, "api-keys");
  const keys = useQuery({ queryKey: key, queryFn: () => admin.listUserApiKeys(userId), enabled });
  const [created, setCreated] = useState<UserApiKeyFirstView | null>(null);
  const revoke = useConfirmedAction({
    action: (apiKey: UserApiKey) => admin.revokeUserApiKey(userId, apiKey.id),
    onDone: () => queryClient.invalidateQueries({ queryKey: key }),
    failure: "revoke the key",
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>API keys</h2>
      {project.isSuccess && !enabled ? (
        <p>User API keys are turned off for this project (see Authentication).</p>
      ) : (
        <>
          <QueryState query={keys} what="the user's API keys" isEmpty={(items) => items.length === 0} empty={<p>This user has no API keys.</p>}>
            {(items) => (
              <SimpleTable
                columns={["Description", "Ends in", "Created", "Expires", "Status", "Actions"]}
                caption="The user's API keys"
                region="API keys (scrolls sideways on narrow screens)"
                className="users-table-wide"
              >
                {items.map((apiKey) => {
                  const status = keyStatus(apiKey);
                  return (
                    <tr key={apiKey.id}>
                      <td>{apiKey.description}</td>
                      <td>
                        <code className="dashboard-code">…{apiKey.value.lastFour}</code>
                      </td>
                      <td>
                        <DateTime value={apiKey.createdAt} />
                      </td>
                      <td>{apiKey.expiresAt ? <DateTime value={apiKey.expiresAt} /> : "Never"}</td>
                      <td>{status === "Revoked" ? <>Revoked <DateTime value={apiKey.manuallyRevokedAt} /></> : status}</td>
                      <td>
                        {status === "Revoked" ? null : (
                          <button
                            type="button"
                            className="dashboard-secondary dashboard-small-button"
                            aria-label={`Revoke the key ${apiKey.description}`}
                            onClick={() => revoke.ask(apiKey)}
                          >
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </SimpleTable>
            )}
          </QueryState>
          {created ? (
            <NewKey apiKey={created} onDone={() => setCreated(null)} />
          ) : enabled ? (
            <UserApiKeyForm
              projectId={projectId}
              userId={userId}
              onCreated={async (apiKey) => {
                setCreated(apiKey);
                await queryClient.invalidateQueries({ queryKey: key });
              }}
            />
          ) : null}
        </>
      )}
      <ConfirmDialog {...revoke.dialog} title="Revoke this API key?" confirmLabel="Revoke key">
        <p>
          Whatever uses the key <strong>{revoke.pending?.description}</strong> (ending in …{revoke.pending?.value.lastFour}) stops working at once. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** The whole value of a key just created: shown this once, never again. */
function NewKey({ apiKey, onDone }: { apiKey: UserApiKeyFirstView; onDone: () => void }) {
  const id = useId();
  return (
    <div className="dashboard-card config-once" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>New key: {apiKey.description}</h3>
      <p role="status">Copy the key now and give it to whoever needs it: you will not see it again.</p>
      <Copyable value={apiKey.value} label="Copy the new API key" testId="new-user-api-key" />
      <div className="dashboard-actions">
        <button type="button" className="dashboard-secondary" onClick={onDone}>
          I have copied the key
        </button>
      </div>
    </div>
  );
}

function keyStatus(apiKey: UserApiKey, now = Date.now()): "Active" | "Revoked" | "Expired" {
  if (apiKey.manuallyRevokedAt) return "Revoked";
  return apiKey.expiresAt && apiKey.expiresAt.getTime() <= now ? "Expired" : "Active";
}
