import { useNavigate, useSearch } from "@tanstack/react-router";
import { useId, type ComponentType } from "react";
import { PageTabs, tabPanelProps } from "../../components/page-tabs.js";
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
  const active = TABS.find((tab) => tab.id === current)!;

  return (
    <>
      <PageTabs idPrefix={id} title="Payments" label="Payments" tabs={TABS} current={current} onSelect={setCurrent} />
      <div className="payments-stack" {...tabPanelProps(id, current)}>
        <active.Section key={active.id} />
      </div>
    </>
  );
}
