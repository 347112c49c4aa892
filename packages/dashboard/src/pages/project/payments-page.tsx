import { useNavigate, useSearch } from "@tanstack/react-router";
import { useId, useRef, type ComponentType, type KeyboardEvent } from "react";
import { CatalogSection } from "./payments/catalog-section.js";
import { CustomersSection } from "./payments/customers-section.js";
import type { PaymentsTabId } from "./payments/payments-search.js";
import { StripeSection } from "./payments/stripe-section.js";
import { TransactionsSection } from "./payments/transactions-section.js";
import "./payments/payments.css";

const TABS: readonly { id: PaymentsTabId; label: string; Section: ComponentType }[] = [
  { id: "setup", label: "Setup", Section: StripeSection },
  { id: "catalog", label: "Items & offers", Section: CatalogSection },
  { id: "customers", label: "Customers", Section: CustomersSection },
  { id: "transactions", label: "Transactions", Section: TransactionsSection },
];

/**
 * The project's Payments page (issue 32): connecting Stripe (or test mode), what the project sells (groups,
 * items, offers and prices, in its config), granting items and test purchases for a customer, and the
 * transactions, one tab each (ARIA tabs, as on the Emails page). The open tab is in the address (`?tab=`).
 */
export function PaymentsPage() {
  const id = useId();
  const current = useSearch({ from: "/projects/$projectId/payments" }).tab ?? "setup";
  const navigate = useNavigate({ from: "/projects/$projectId/payments" });
  // Replaced, not pushed: Back leaves the page rather than stepping through its tabs.
  // The customer open on the Customers tab stays in the address while other tabs are looked at.
  const setCurrent = (tab: PaymentsTabId) => void navigate({ search: (previous) => ({ ...previous, tab: tab === "setup" ? undefined : tab }), replace: true });
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const active = TABS.find((tab) => tab.id === current)!;

  function moveWithKeys(event: KeyboardEvent) {
    const index = TABS.findIndex((tab) => tab.id === current);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = TABS[(next + TABS.length) % TABS.length]!;
    setCurrent(tab.id);
    tabs.current[tab.id]?.focus();
  }

  return (
    <>
      <section className="dashboard-card payments-header" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Payments</h2>
        <div role="tablist" aria-label="Payments" className="payments-tabs" onKeyDown={moveWithKeys}>
          {TABS.map((tab) => (
            <button
              key={tab.id}
              ref={(element) => {
                tabs.current[tab.id] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.id}`}
              aria-selected={tab.id === current}
              aria-controls={`${id}-panel`}
              tabIndex={tab.id === current ? 0 : -1}
              onClick={() => setCurrent(tab.id)}
            >
              {tab.label}
            </button>
          ))}
        </div>
      </section>
      <div className="payments-stack" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${current}`}>
        <active.Section key={active.id} />
      </div>
    </>
  );
}
