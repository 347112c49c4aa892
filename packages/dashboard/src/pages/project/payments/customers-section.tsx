import { useNavigate, useSearch } from "@tanstack/react-router";
import { useId, useState } from "react";
import { QueryState } from "../../../components/query-state.js";
import { TextField } from "../../../components/text-field.js";
import { useProjectAdmin, useProjectId } from "../../../project-admin.js";
import { useProjectConfig } from "../project-config/project-config-queries.js";
import { CustomerItemsCard } from "./customer-items-card.js";
import { paymentsConfigOf } from "./payments-config.js";
import type { ChosenCustomer } from "./payments-queries.js";
import { customerOfSearch } from "./payments-search.js";
import { CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS, type CustomerType } from "./payments-rules.js";
import { TestPurchaseCard } from "./test-purchase-card.js";

const ID_HINTS: Record<CustomerType, string> = {
  user: "The user's id, as the Users page shows it.",
  team: "The team's id, as the Teams page shows it.",
  custom: "Your app's own id of the customer (e.g. an organisation in your database).",
};

/**
 * One customer's payments: pick a user, team or custom customer by id, then see and change their item
 * balances, or make a test-mode purchase for them.
 */
export function CustomersSection() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const config = useProjectConfig();
  const id = useId();
  // The open customer is in the address (`?customer=user:<id>`), where the user and team pages link.
  const search = useSearch({ from: "/projects/$projectId/payments" });
  const navigate = useNavigate({ from: "/projects/$projectId/payments" });
  const customer = customerOfSearch(search.customer) ?? null;
  const [input, setInput] = useState<ChosenCustomer>(customer ?? { type: "user", id: "" });
  const [error, setError] = useState<string | undefined>();
  const setCustomer = (chosen: ChosenCustomer) => void navigate({ search: (previous) => ({ ...previous, customer: `${chosen.type}:${chosen.id}` }), replace: true });

  return (
    <>
      <section className="dashboard-card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Customer</h2>
        <p className="dashboard-muted">Whose items to see or change, and who a test purchase is for.</p>
        <form
          className="dashboard-inline-form"
          aria-label="Choose a customer"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const customerId = input.id.trim();
            if (customerId === "") return setError("Enter the customer's id.");
            setError(undefined);
            setCustomer({ type: input.type, id: customerId });
          }}
        >
          <div className="dashboard-field">
            <label htmlFor={`${id}-type`}>Customer type</label>
            <select id={`${id}-type`} value={input.type} onChange={(event) => setInput({ ...input, type: event.target.value as CustomerType })}>
              {CUSTOMER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {CUSTOMER_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          </div>
          <TextField
            id={`${id}-id`}
            label="Customer id"
            hint={ID_HINTS[input.type]}
            value={input.id}
            error={error}
            onChange={(value) => setInput({ ...input, id: value })}
          />
          <button type="submit">Open customer</button>
        </form>
      </section>
      {customer ? (
        <QueryState query={config} what="the payments configuration">
          {(loaded) => {
            const payments = paymentsConfigOf(loaded);
            return (
              <>
                <CustomerItemsCard key={`items-${customer.type}-${customer.id}`} admin={admin} projectId={projectId} customer={customer} payments={payments} />
                <TestPurchaseCard key={`purchase-${customer.type}-${customer.id}`} admin={admin} projectId={projectId} customer={customer} payments={payments} />
              </>
            );
          }}
        </QueryState>
      ) : null}
    </>
  );
}
