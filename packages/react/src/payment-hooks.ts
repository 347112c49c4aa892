import { paymentsOf, type Item, type Offer } from "@latchkey/core";
import { useMemo } from "react";
import { useApp, useLoaded } from "./hooks.js";

/**
 * An item of the signed-in user (or of `teamId`): `undefined` while loading, `null` when signed out. Re-renders
 * when it changes: after a purchase once the person is back on the page, after a change this app made, and on
 * `paymentsOf(app).refreshPayments()`. A failed load throws, so the nearest error boundary shows it.
 *
 * @example
 * ```ts
 * const credits = useItem("credits");
 * return credits ? `${credits.nonNegativeQuantity} credits left` : null;
 * ```
 */
export function useItem(itemId: string, options: { teamId?: string } = {}): Item | null | undefined {
  const app = useApp();
  const { teamId } = options;
  const store = useMemo(() => paymentsOf(app).itemStore(teamId ? { itemId, teamId } : { itemId }), [app, itemId, teamId]);
  return useLoaded(store);
}

/** The offers of a group (or all) for the signed-in user or `teamId`, with `owned` marking what they hold. */
export function useOffers(options: { groupId?: string; teamId?: string } = {}): Offer[] | null | undefined {
  const app = useApp();
  const { groupId, teamId } = options;
  const store = useMemo(() => paymentsOf(app).offersStore({ ...(groupId ? { groupId } : {}), ...(teamId ? { teamId } : {}) }), [app, groupId, teamId]);
  const list = useLoaded(store);
  return list ? list.offers : list;
}
