import type { AdminApp } from "@latchkey/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { TextField } from "../../../components/text-field.js";
import type { PaymentsConfig } from "./payments-config.js";
import { customerOptions, paymentsKeys, useRefreshPayments, type ChosenCustomer } from "./payments-queries.js";
import { CUSTOMER_TYPE_LABELS, quantityProblem } from "./payments-rules.js";

interface Change {
  itemId: string;
  quantity: number;
  take: boolean;
  allowNegative: boolean;
  description: string;
  expiresAt: Date | undefined;
}

/**
 * The customer's balance of each item held by their type of customer, and a form that grants or takes some
 * (`POST /payments/items/…/update-quantity` with the owner's admin access). Taking stops at zero unless
 * "may go below zero" is ticked: the server refuses it then, in its own words, and nothing changes.
 */
export function CustomerItemsCard({ admin, projectId, customer, payments }: { admin: AdminApp; projectId: string; customer: ChosenCustomer; payments: PaymentsConfig }) {
  const id = useId();
  const refresh = useRefreshPayments(projectId);
  const items = Object.entries(payments.items).filter(([, item]) => item.customerType === customer.type);
  const balances = useQuery({
    queryKey: [...paymentsKeys.balances(projectId, customer), items.map(([itemId]) => itemId)],
    queryFn: () => Promise.all(items.map(([itemId]) => admin.getItem({ itemId, ...customerOptions(customer) }))),
  });
  const [input, setInput] = useState({ itemId: items[0]?.[0] ?? "", quantity: "", description: "", expiresAt: "", allowNegative: false });
  const [errors, setErrors] = useState<{ quantity?: string; expiresAt?: string }>({});
  const change = useMutation({
    mutationFn: async (change: Change) => {
      const item = await admin.getItem({ itemId: change.itemId, ...customerOptions(customer) });
      const options = { ...(change.description && { description: change.description }), ...(change.expiresAt && { expiresAt: change.expiresAt }) };
      if (!change.take) return item.increaseQuantity(change.quantity, options);
      // Without "below zero", a negative change the server checks against the balance (as tryDecreaseQuantity
      // does), so a refusal comes back as the server's ITEM_QUANTITY_INSUFFICIENT_AMOUNT message.
      return change.allowNegative ? item.decreaseQuantity(change.quantity, options) : item.increaseQuantity(-change.quantity, options);
    },
    onSettled: () => refresh(),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change.reset();
    const take = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "take";
    const quantity = input.quantity.trim();
    const next: typeof errors = {};
    next.quantity = quantityProblem(quantity, { allowZero: false });
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : undefined;
    if (expiresAt && !(expiresAt.getTime() > Date.now())) next.expiresAt = "Choose a time in the future, or leave it empty.";
    setErrors(next);
    if (next.quantity || next.expiresAt) return;
    change.mutate({ itemId: input.itemId, quantity: Number(quantity), take, allowNegative: input.allowNegative, description: input.description.trim(), expiresAt });
  };

  const done = change.isSuccess ? change.variables : undefined;
  const who = `${customer.type} ${customer.id}`;
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Items of {who}</h2>
      {items.length === 0 ? (
        <p>No items are held by {CUSTOMER_TYPE_LABELS[customer.type].toLowerCase()} yet. Add one on the Items &amp; offers tab.</p>
      ) : (
        <>
          <QueryState query={balances} what="the balances">
            {(loaded) => (
              <SimpleTable columns={["Item", "Quantity"]} label={`Balances of ${who}`}>
                {loaded.map((item) => (
                  <tr key={item.id}>
                    <td>
                      {item.displayName} <code className="dashboard-muted">{item.id}</code>
                    </td>
                    <td>{item.quantity}</td>
                  </tr>
                ))}
              </SimpleTable>
            )}
          </QueryState>
          <form className="dashboard-form" aria-label="Grant or take items" noValidate onSubmit={submit}>
            <h3>Grant or take items</h3>
            <div className="dashboard-field">
              <label htmlFor={`${id}-item`}>Item</label>
              <select id={`${id}-item`} value={input.itemId} onChange={(event) => setInput({ ...input, itemId: event.target.value })}>
                {items.map(([itemId, item]) => (
                  <option key={itemId} value={itemId}>
                    {item.displayName || itemId} ({itemId})
                  </option>
                ))}
              </select>
            </div>
            <TextField id={`${id}-quantity`} label="Quantity" inputMode="numeric" value={input.quantity} error={errors.quantity} onChange={(quantity) => setInput({ ...input, quantity })} />
            <TextField
              id={`${id}-description`}
              label="Description"
              hint="Optional; listed with the transaction."
              value={input.description}
              onChange={(description) => setInput({ ...input, description })}
            />
            <TextField
              id={`${id}-expires`}
              label="Expires"
              type="datetime-local"
              hint="Optional: when this change stops counting (e.g. credits for a month)."
              value={input.expiresAt}
              error={errors.expiresAt}
              onChange={(expiresAt) => setInput({ ...input, expiresAt })}
            />
            <label className="payments-check">
              <input type="checkbox" checked={input.allowNegative} onChange={(event) => setInput({ ...input, allowNegative: event.target.checked })} />
              Taking may leave the balance below zero
            </label>
            <FailureAlert action="change the quantity" error={change.error} />
            <div className="dashboard-actions">
              {/* Grant first: Enter in a field submits with the first button. */}
              <button type="submit" name="action" value="grant" disabled={change.isPending}>
                Grant
              </button>
              <button type="submit" name="action" value="take" className="dashboard-secondary" disabled={change.isPending}>
                Take
              </button>
            </div>
            <p role="status" className="dashboard-muted">
              {change.isPending ? "Saving…" : done ? `${done.take ? "Took" : "Granted"} ${done.quantity} × ${payments.items[done.itemId]?.displayName ?? done.itemId}.` : ""}
            </p>
          </form>
        </>
      )}
    </section>
  );
}
