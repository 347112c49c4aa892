/**
 * The Payments page's address: `?tab=` names the open tab, so a reload or a link (Stripe's onboarding comes
 * back to `?tab=setup`) opens it again. Kept apart from the page and free of libraries: the router, in the
 * first page's code, reads it.
 */
export const PAYMENTS_TAB_IDS = ["setup", "catalog", "customers", "transactions"] as const;

export type PaymentsTabId = (typeof PAYMENTS_TAB_IDS)[number];

export interface PaymentsSearch {
  /** Absent: the first tab, setup. */
  tab?: PaymentsTabId | undefined;
}

/** The route's `validateSearch`: an unknown or missing tab is the first one (and stays out of the address). */
export function paymentsSearch(search: Record<string, unknown>): PaymentsSearch {
  const tab = PAYMENTS_TAB_IDS.find((id) => id === search.tab);
  return { tab: tab === "setup" ? undefined : tab };
}
