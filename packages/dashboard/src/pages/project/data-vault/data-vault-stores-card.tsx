import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { TextField } from "../../../components/text-field.js";
import { errorMessage } from "../../../error-message.js";
import { useConfigOverrideUpdate } from "../project-config/project-config-queries.js";
import { idProblem } from "../payments/payments-rules.js";

export type DataVaultStores = Record<string, { displayName: string }>;

const storeKey = (storeId: string) => `dataVault.stores.${storeId}`;

/**
 * The stores of the project's data vault: a table, a form that creates one or renames the one picked (a
 * store's id is how apps name it, so it stays), and removal after a confirmation.
 */
export function DataVaultStoresCard({ stores }: { stores: DataVaultStores }) {
  const id = useId();
  const save = useConfigOverrideUpdate();
  const remove = useConfigOverrideUpdate();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [storeId, setStoreId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [idError, setIdError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<string | null>(null);
  const [saved, setSaved] = useState("");
  const entries = Object.entries(stores);

  const reset = () => {
    save.reset();
    setIdError(undefined);
    setRenaming(null);
    setStoreId("");
    setDisplayName("");
  };
  const startRenaming = (entryId: string) => {
    reset();
    setSaved("");
    setRenaming(entryId);
    setDisplayName(stores[entryId]?.displayName ?? "");
  };
  const submit = () => {
    save.reset();
    setSaved("");
    if (renaming) {
      save.mutate({ [`${storeKey(renaming)}.displayName`]: displayName.trim() || "Unnamed Vault" }, { onSuccess: () => (setSaved(`Renamed the store ${renaming}.`), reset()) });
      return;
    }
    const newId = storeId.trim();
    const problem = idProblem(newId, "an id for the store") ?? (Object.hasOwn(stores, newId) ? "There is already a store with this id." : undefined);
    setIdError(problem);
    if (problem) return;
    save.mutate({ [storeKey(newId)]: displayName.trim() ? { displayName: displayName.trim() } : {} }, { onSuccess: () => (setSaved(`Created the store ${newId}.`), reset()) });
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Data vault stores</h2>
      <p className="dashboard-muted">
        Your server keeps per-user secrets here (third-party tokens, recovery material) with <code>app.getDataVaultStore(id)</code>. The app encrypts each
        value with a secret only it holds; Latchkey stores what it cannot read and seals it once more at rest.
      </p>
      {entries.length === 0 ? (
        <p>No stores yet.</p>
      ) : (
        <SimpleTable columns={["Id", "Name", ""]} label="Data vault stores">
          {entries.map(([entryId, store]) => (
            <tr key={entryId}>
              <td>
                <code>{entryId}</code>
              </td>
              <td>{store.displayName}</td>
              <td>
                <div className="dashboard-actions">
                  <button type="button" className="dashboard-secondary dashboard-small-button" aria-label={`Rename the store ${entryId}`} onClick={() => startRenaming(entryId)}>
                    Rename
                  </button>
                  <button type="button" className="dashboard-danger dashboard-small-button" aria-label={`Delete the store ${entryId}`} onClick={() => (remove.reset(), setRemoving(entryId))}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </SimpleTable>
      )}
      <form
        className="dashboard-form"
        aria-label={renaming ? `Rename the store ${renaming}` : "Create a store"}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <h3>{renaming ? `Rename ${renaming}` : "Create a store"}</h3>
        {renaming ? null : (
          <TextField id={`${id}-id`} label="Store id" hint="Letters, digits, _ and -; the id your code passes to getDataVaultStore. It cannot be changed later." value={storeId} error={idError} onChange={setStoreId} />
        )}
        <TextField id={`${id}-name`} label="Display name" hint="Shown here only. Empty: Unnamed Vault." value={displayName} onChange={setDisplayName} />
        <FailureAlert action="save the store" error={save.error} />
        <div className="dashboard-actions">
          {renaming ? (
            <button type="button" className="dashboard-secondary" onClick={reset}>
              Cancel
            </button>
          ) : null}
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : renaming ? "Save name" : "Create store"}
          </button>
        </div>
        <p role="status" className="dashboard-muted">
          {saved}
        </p>
      </form>
      <ConfirmDialog
        open={removing !== null}
        title="Delete this store?"
        confirmLabel="Delete store"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate({ [storeKey(removing)]: null }, { onSuccess: () => (setSaved(`Deleted the store ${removing}.`), setRemoving(null)) });
        }}
      >
        <p>
          Apps can no longer read or write the store <code className="dashboard-code">{removing}</code>. Its values stay sealed in the database: a store made
          again with this id reads them again.
        </p>
      </ConfirmDialog>
    </section>
  );
}
