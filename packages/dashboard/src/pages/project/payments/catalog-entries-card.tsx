import { useEffect, useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { TextField } from "../../../components/text-field.js";
import { errorMessage } from "../../../error-message.js";
import { useConfigOverrideUpdate } from "../project-config/project-config-queries.js";
import { paymentsKey, usersOf, type PaymentsConfig } from "./payments-config.js";
import { CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS, idProblem, type CustomerType } from "./payments-rules.js";

/** What the card edits: groups (a name) or items (a name and the customers who hold them). */
const KINDS = {
  groups: {
    title: "Groups",
    one: "group",
    intro: "Offers in a group are mutually exclusive (a customer holds one plan of “plans”), except add-ons.",
    hasCustomerType: false,
  },
  items: {
    title: "Items",
    one: "item",
    intro: "What customers hold a quantity of: seats, credits, features. Offers include items; you can also grant or take them on the Customers tab.",
    hasCustomerType: true,
  },
} as const;

type Input = { id: string; displayName: string; customerType: CustomerType };
const EMPTY: Input = { id: "", displayName: "", customerType: "user" };

/**
 * The project's payment groups or items: a table of them, a form that adds one or edits the one picked
 * (its id is its identity and stays), and removal — refused while an offer still names it.
 */
export function CatalogEntriesCard({ kind, payments }: { kind: "groups" | "items"; payments: PaymentsConfig }) {
  const { title, one, intro, hasCustomerType } = KINDS[kind];
  const id = useId();
  const save = useConfigOverrideUpdate();
  const remove = useConfigOverrideUpdate();
  const [editing, setEditing] = useState<string | null>(null);
  const [input, setInput] = useState<Input>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Input, string>>>({});
  const [removing, setRemoving] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // The form is below the list: the field to change gets the focus (and scrolls into view) when editing starts.
  useEffect(() => {
    if (editing !== null) document.getElementById(`${id}-name`)?.focus();
  }, [editing, id]);
  const entries = Object.entries(payments[kind]) as [string, { displayName?: string; customerType?: CustomerType }][];

  const startEditing = (entryId: string) => {
    const entry = payments[kind][entryId] as { displayName?: string; customerType?: CustomerType };
    save.reset();
    setErrors({});
    setSaved(null);
    setEditing(entryId);
    setInput({ id: entryId, displayName: entry.displayName ?? "", customerType: entry.customerType ?? "user" });
  };
  const stopEditing = () => {
    save.reset();
    setErrors({});
    setEditing(null);
    setInput(EMPTY);
  };

  const submit = () => {
    save.reset();
    setSaved(null);
    const next: typeof errors = {};
    if (editing === null) {
      next.id = idProblem(input.id.trim(), `an id for the ${one}`);
      if (!next.id && Object.hasOwn(payments[kind], input.id.trim())) next.id = `There is already a ${one} with this id.`;
    }
    if (kind === "items" && input.displayName.trim() === "") next.displayName = "Enter the name customers see, e.g. Credits.";
    const problems = Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as typeof errors;
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const entryId = editing ?? input.id.trim();
    const value = { displayName: input.displayName.trim(), ...(hasCustomerType && { customerType: input.customerType }) };
    save.mutate({ [paymentsKey(kind, entryId)]: value }, { onSuccess: () => (setSaved(entryId), stopEditing()) });
  };

  const askToRemove = (entryId: string) => {
    remove.reset();
    const users = usersOf(payments, kind, entryId);
    if (users.length > 0) return setBlocked(`The ${one} ${entryId} is used by ${users.join(", ")}: change ${users.length === 1 ? "that offer" : "those offers"} first.`);
    setBlocked(null);
    setRemoving(entryId);
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="dashboard-muted">{intro}</p>
      {entries.length === 0 ? (
        <p>No {kind} yet.</p>
      ) : (
        <SimpleTable columns={["Id", "Name", ...(hasCustomerType ? ["Held by"] : []), ""]} label={title}>
          {entries.map(([entryId, entry]) => (
            <tr key={entryId}>
              <td>
                <code>{entryId}</code>
              </td>
              <td>{entry.displayName || <span className="dashboard-muted">(no name)</span>}</td>
              {hasCustomerType ? <td>{CUSTOMER_TYPE_LABELS[entry.customerType ?? "user"]}</td> : null}
              <td>
                <div className="dashboard-actions">
                  <button type="button" className="dashboard-secondary dashboard-small-button" aria-label={`Edit the ${one} ${entryId}`} onClick={() => startEditing(entryId)}>
                    Edit
                  </button>
                  <button type="button" className="dashboard-danger dashboard-small-button" aria-label={`Remove the ${one} ${entryId}`} onClick={() => askToRemove(entryId)}>
                    Remove
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </SimpleTable>
      )}
      {blocked ? (
        <p role="alert" className="dashboard-error">
          {blocked}
        </p>
      ) : null}
      <form
        className="dashboard-form"
        aria-label={editing ? `Edit the ${one} ${editing}` : `Add ${one === "item" ? "an" : "a"} ${one}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <h3>{editing ? `Edit ${editing}` : `Add ${one === "item" ? "an" : "a"} ${one}`}</h3>
        {editing ? null : (
          <TextField
            id={`${id}-id`}
            label={`${one === "item" ? "Item" : "Group"} id`}
            hint="Letters, digits, _ and -; how your code names it. It cannot be changed later."
            value={input.id}
            error={errors.id}
            onChange={(value) => setInput({ ...input, id: value })}
          />
        )}
        <TextField
          id={`${id}-name`}
          label="Display name"
          hint={kind === "groups" ? "Optional." : "What customers see."}
          value={input.displayName}
          error={errors.displayName}
          onChange={(value) => setInput({ ...input, displayName: value })}
        />
        {hasCustomerType ? (
          <div className="dashboard-field">
            <label htmlFor={`${id}-customer-type`}>Held by</label>
            <select id={`${id}-customer-type`} value={input.customerType} onChange={(event) => setInput({ ...input, customerType: event.target.value as CustomerType })}>
              {CUSTOMER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {CUSTOMER_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <FailureAlert action={`save the ${one}`} error={save.error} />
        <div className="dashboard-actions">
          {editing ? (
            <button type="button" className="dashboard-secondary" onClick={stopEditing}>
              Cancel
            </button>
          ) : null}
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : editing ? `Save ${one}` : `Add ${one}`}
          </button>
        </div>
        <p role="status" className="dashboard-muted">
          {saved ? `Saved the ${one} ${saved}.` : ""}
        </p>
      </form>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove this ${one}?`}
        confirmLabel={`Remove ${one}`}
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate({ [paymentsKey(kind, removing)]: null }, { onSuccess: () => setRemoving(null) });
        }}
      >
        <p>
          The {one} <code className="dashboard-code">{removing}</code> leaves the project's config.
          {kind === "items" ? " The quantity changes already made stay listed in the transactions." : ""}
        </p>
      </ConfirmDialog>
    </section>
  );
}
