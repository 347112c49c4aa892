import type { InternalApiKey, InternalApiKeyFirstView } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { projectKey } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { Copyable } from "../project-config/copy-button.js";
import { useProjectSettings } from "../project-config/project-config-queries.js";
import { CreateKeySetForm } from "./create-key-set-form.js";
import { formatExpiry, keySetStatus } from "./key-sets.js";

const keySetsKey = (projectId: string) => [...projectKey(projectId), "key-sets"] as const;

/**
 * The project's key sets: what apps use to reach the API. New keys are shown once, right after they are
 * created; afterwards only their last four characters. Revoking is final.
 */
export function KeySetsCard() {
  const id = useId();
  const { projectId, admin } = useProjectSettings();
  const queryClient = useQueryClient();
  const keySets = useQuery({
    queryKey: keySetsKey(projectId),
    queryFn: async () => (await admin.listInternalApiKeys()).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
  });
  const [created, setCreated] = useState<InternalApiKeyFirstView | null>(null);
  const revoke = useConfirmedAction({
    action: (keySet: InternalApiKey) => admin.revokeInternalApiKey(keySet.id),
    onDone: () => queryClient.invalidateQueries({ queryKey: keySetsKey(projectId) }),
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Key sets</h2>
      {created ? (
        <NewKeySet keySet={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeySetForm
          onCreated={async (keySet) => {
            setCreated(keySet);
            await queryClient.invalidateQueries({ queryKey: keySetsKey(projectId) });
          }}
        />
      )}
      <h3>Existing key sets</h3>
      <QueryState query={keySets} what="the key sets" isEmpty={(list) => list.length === 0} empty={<p>No key sets yet.</p>}>
        {(list) => (
          <SimpleTable columns={["Description", "Keys", "Created", "Expires", "Status", "Actions"]} region="Key sets table">
            {list.map((keySet) => {
              const status = keySetStatus(keySet);
              return (
                <tr key={keySet.id}>
                  <td>{keySet.description}</td>
                  <td>
                    {keySet.publishableClientKey ? <div>Publishable client key …{keySet.publishableClientKey.lastFour}</div> : null}
                    {keySet.secretServerKey ? <div>Secret server key …{keySet.secretServerKey.lastFour}</div> : null}
                    {keySet.superSecretAdminKey ? <div>Super secret admin key …{keySet.superSecretAdminKey.lastFour}</div> : null}
                  </td>
                  <td>{keySet.createdAt.toLocaleString()}</td>
                  <td>{formatExpiry(keySet.expiresAt)}</td>
                  <td>{status}</td>
                  <td>
                    {status === "Active" ? (
                      <button type="button" className="dashboard-danger" aria-label={`Revoke ${keySet.description}`} onClick={() => revoke.ask(keySet)}>
                        Revoke
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </SimpleTable>
        )}
      </QueryState>
      <ConfirmDialog {...revoke.dialog} title="Revoke this key set?" confirmLabel="Revoke keys">
        <p>
          Every app using the keys of “{revoke.pending?.description}” loses access at once. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

const KEY_LABELS = [
  ["publishableClientKey", "Publishable client key"],
  ["secretServerKey", "Secret server key"],
  ["superSecretAdminKey", "Super secret admin key"],
] as const;

/** The new keys, this once, each with a copy button. */
function NewKeySet({ keySet, onDone }: { keySet: InternalApiKeyFirstView; onDone: () => void }) {
  const id = useId();
  const { projectId } = useProjectSettings();
  return (
    <div className="dashboard-card config-once" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>New keys: {keySet.description}</h3>
      <p role="alert">
        <strong>Copy these keys now. You will not see them again:</strong> the server keeps only their last four characters.
      </p>
      <div className="dashboard-field">
        <span>Project ID</span>
        <Copyable value={projectId} label="Copy the project ID" />
      </div>
      {KEY_LABELS.map(([field, label]) =>
        keySet[field] ? (
          <div key={field} className="dashboard-field">
            <span>{label}</span>
            <Copyable value={keySet[field]!} label={`Copy the ${label.toLowerCase()}`} testId={`new-${field}`} />
          </div>
        ) : null,
      )}
      <div className="dashboard-actions">
        <button type="button" onClick={onDone}>
          I have copied the keys
        </button>
      </div>
    </div>
  );
}
