/**
 * The Payments page's address: `?tab=` names the open tab, so a reload or a link (Stripe's onboarding comes
 * back to the page) opens it again, and `?customer=<type>:<id>` the customer open on the Customers tab (the
 * user and team pages link there). Kept apart from the page and free of libraries: the router, in the first
 * page's code, reads it.
 */
export const PAYMENTS_TAB_IDS = ["setup", "catalog", "customers", "transactions"] as const;

export type PaymentsTabId = (typeof PAYMENTS_TAB_IDS)[number];

export interface PaymentsSearch {
  /** Absent: the first tab, setup. */
  tab?: PaymentsTabId | undefined;
  /** `user:<id>`, `team:<id>` or `custom:<id>`. */
  customer?: string | undefined;
}

const CUSTOMER = /^(user|team|custom):(.{1,200})$/s;

/** The customer a `customer` parameter names, or undefined. */
export function customerOfSearch(value: string | undefined): { type: "user" | "team" | "custom"; id: string } | undefined {
  const match = value === undefined ? null : CUSTOMER.exec(value);
  return match ? { type: match[1] as "user" | "team" | "custom", id: match[2]! } : undefined;
}

/**
 * The route's `validateSearch`: an unknown or missing tab is the first one (and stays out of the address), a
 * malformed customer none. Both are always returned, undefined too: the router lays the result over the raw
 * parameters.
 */
export function paymentsSearch(search: Record<string, unknown>): PaymentsSearch {
  const tab = PAYMENTS_TAB_IDS.find((id) => id === search.tab);
  const customer = typeof search.customer === "string" && customerOfSearch(search.customer) ? search.customer : undefined;
  return { tab: tab === "setup" ? undefined : tab, customer };
}
