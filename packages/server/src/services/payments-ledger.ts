import { KnownErrors } from "@latchkey/protocol/errors";
import { sql } from "kysely";
import type { OfferConfig } from "../config/project-config.js";
import type { Db } from "../db/connect.js";
import type { Customer } from "./payments-customers.js";
import { paymentsOf, resolveOffer, type PaymentsConfig, type PaymentsConfigSource } from "./payments-offers.js";
import { grantsBy } from "./payments-periods.js";

export type { Customer } from "./payments-customers.js";

/**
 * The payments ledger (issue 32). An item's quantity is never stored: it is computed from
 * - quantity changes (update-quantity) that have not expired;
 * - one-time purchases: included quantity × purchase quantity, never expiring;
 * - subscriptions: included quantity × subscription quantity. A `repeat: [n, unit]` grants again every
 *   interval from the subscription's start (the earlier of its row's creation and its first period start);
 *   `expires` says what counts: `when-repeated` the current grant while the subscription lives,
 *   `when-purchase-expires` every grant so far while it lives, `never` every grant made while it lived, also
 *   after it ended;
 * - each group's `include-by-default` offer while the customer has no live subscription (add-ons aside) in that group (an
 *   ungrouped one always): its included quantity, once. Its repeats are anchored at the epoch, but as nothing
 *   was bought there is nothing to accumulate: whatever `repeat`/`expires` say, the current grant is what counts.
 * A consumption (negative change) does not expire with the grant it was taken from, as in the reference's
 * 2.8.41 ledger: a repeating `when-repeated` grant comes back whole and the consumption stays subtracted.
 */

export interface OwnedOffer {
  kind: "subscription" | "one_time" | "include_by_default";
  offerId: string | null;
  /** The offer as configured now (or the purchase's snapshot when the config no longer has it / it was inline). */
  offer: OfferConfig;
  groupId: string | null;
  subscriptionId?: string;
  quantity: number;
}

/** A holding with what the quantity computation needs beyond OwnedOffer. */
interface Holding extends OwnedOffer {
  /** When grants start (repeat anchor). */
  anchor: Date;
  /** When a subscription stopped granting; null while it lives (and for one-time / default holdings). */
  endedAt: Date | null;
}

const LIVE_STATUSES = new Set(["active", "trialing"]);
/** Stripe statuses of subscriptions that were never paid for: they never granted anything. */
const NEVER_STARTED = new Set(["incomplete", "incomplete_expired"]);
const EPOCH = new Date(0);

type SubscriptionRow = {
  id: string; offer_id: string | null; offer: unknown; quantity: number; status: string;
  current_period_start: Date; current_period_end: Date | null; created_at: Date; updated_at: Date;
};

function subscriptionHolding(payments: PaymentsConfig, row: SubscriptionRow, now: Date): Holding | null {
  if (NEVER_STARTED.has(row.status)) return null;
  const offer = resolveOffer(payments, row.offer_id, row.offer);
  const anchor = new Date(Math.min(row.created_at.getTime(), row.current_period_start.getTime()));
  const periodEnd = row.current_period_end;
  let endedAt: Date | null = null;
  if (!LIVE_STATUSES.has(row.status)) {
    endedAt = periodEnd && periodEnd.getTime() < row.updated_at.getTime() ? periodEnd : row.updated_at;
  } else if (periodEnd && periodEnd.getTime() <= now.getTime()) {
    // A period that ran out without a renewal (a test-mode subscription lasts one interval).
    endedAt = periodEnd;
  }
  return {
    kind: "subscription", offerId: row.offer_id, offer, groupId: offer.groupId ?? null, subscriptionId: row.id,
    quantity: row.quantity, anchor, endedAt,
  };
}

const isLive = (h: Holding, now: Date) => h.anchor.getTime() <= now.getTime() && (h.endedAt === null || now.getTime() < h.endedAt.getTime());

/** Everything the customer holds or held that grants items: subscriptions (also ended ones), purchases, defaults. */
async function holdings(db: Db, customer: Customer, payments: PaymentsConfig, now: Date): Promise<Holding[]> {
  const [subscriptions, purchases] = await Promise.all([
    db.selectFrom("payment_subscriptions")
      .select(["id", "offer_id", "offer", "quantity", "status", "current_period_start", "current_period_end", "created_at", "updated_at"])
      .where("project_id", "=", customer.projectId).where("customer_type", "=", customer.customerType).where("customer_id", "=", customer.customerId)
      .orderBy("created_at").orderBy("id")
      .execute(),
    db.selectFrom("payment_one_time_purchases")
      .select(["id", "offer_id", "offer", "quantity", "created_at"])
      .where("project_id", "=", customer.projectId).where("customer_type", "=", customer.customerType).where("customer_id", "=", customer.customerId)
      .where("created_at", "<=", now)
      .orderBy("created_at").orderBy("id")
      .execute(),
  ]);
  const result: Holding[] = [];
  for (const row of subscriptions) {
    const holding = subscriptionHolding(payments, row, now);
    if (holding) result.push(holding);
  }
  for (const row of purchases) {
    const offer = resolveOffer(payments, row.offer_id, row.offer);
    result.push({ kind: "one_time", offerId: row.offer_id, offer, groupId: offer.groupId ?? null, quantity: row.quantity, anchor: row.created_at, endedAt: null });
  }
  // Add-ons sit beside a group's plans rather than replacing them, so they do not displace its default.
  const subscribedGroups = new Set(
    result.filter((h) => h.kind === "subscription" && h.groupId !== null && h.offer.isAddOnTo === false && isLive(h, now)).map((h) => h.groupId),
  );
  for (const [offerId, offer] of Object.entries(payments.offers)) {
    if (offer.prices !== "include-by-default" || offer.customerType !== customer.customerType) continue;
    const groupId = offer.groupId ?? null;
    if (groupId !== null && subscribedGroups.has(groupId)) continue;
    result.push({ kind: "include_by_default", offerId, offer, groupId, quantity: 1, anchor: EPOCH, endedAt: null });
  }
  return result;
}

/** What the customer holds now: live subscriptions, one-time purchases, and the defaults of groups without one. */
export async function ownedOffers(db: Db, customer: Customer, config: PaymentsConfigSource, now: Date = new Date()): Promise<OwnedOffer[]> {
  const all = await holdings(db, customer, paymentsOf(config), now);
  return all
    .filter((h) => h.kind !== "subscription" || isLive(h, now))
    .map(({ anchor: _anchor, endedAt: _endedAt, ...owned }) => owned);
}

/** How much of an item one holding grants at `now`. */
function granted(h: Holding, itemId: string, now: Date): number {
  const entry = Object.prototype.hasOwnProperty.call(h.offer.includedItems, itemId) ? h.offer.includedItems[itemId] : undefined;
  if (!entry || !entry.quantity) return 0;
  const perGrant = entry.quantity * h.quantity;
  if (h.kind !== "subscription") return perGrant;
  const live = isLive(h, now);
  // Grants happen from the anchor until the subscription ended (exclusive) or now.
  const lastMoment = h.endedAt !== null && h.endedAt.getTime() <= now.getTime() ? new Date(h.endedAt.getTime() - 1) : now;
  const grants = entry.repeat === "never" ? (h.anchor.getTime() <= lastMoment.getTime() ? 1 : 0) : grantsBy(h.anchor, entry.repeat, lastMoment);
  if (grants === 0) return 0;
  if (entry.expires === "never") return perGrant * grants;
  if (!live) return 0;
  return entry.expires === "when-purchase-expires" ? perGrant * grants : perGrant;
}

/** What the customer's holdings (subscriptions, purchases, defaults) grant of the item now; quantity changes aside. */
async function grantedQuantity(db: Db, customer: Customer, itemId: string, config: PaymentsConfigSource, now: Date): Promise<number> {
  let total = 0;
  for (const h of await holdings(db, customer, paymentsOf(config), now)) total += granted(h, itemId, now);
  return total;
}

/** The sum of the item's quantity changes that have not expired at `now`. */
function changesSum(customer: Customer, itemId: string, now: Date) {
  return sql<string>`(select coalesce(sum(quantity), 0) from payment_item_quantity_changes
    where project_id = ${customer.projectId} and customer_type = ${customer.customerType} and customer_id = ${customer.customerId}
      and item_id = ${itemId} and (expires_at is null or expires_at > ${now}))`;
}

/** The item's computed quantity for the customer (negative after an allowed overdraw). */
export async function itemQuantity(db: Db, customer: Customer, itemId: string, config: PaymentsConfigSource, now: Date = new Date()): Promise<number> {
  const [grants, changes] = await Promise.all([
    grantedQuantity(db, customer, itemId, config, now),
    sql<{ total: string }>`select ${changesSum(customer, itemId, now)}::text as total`.execute(db),
  ]);
  return grants + Number(changes.rows[0]?.total ?? 0);
}

export interface QuantityChange {
  delta: number;
  expiresAt?: Date | null;
  description?: string | null;
  allowNegative: boolean;
}

/**
 * Records a quantity change. Race-free: under an advisory lock on (project, customer, item), one conditional
 * INSERT adds the change only if the changes so far plus the grants plus `delta` stay at or above zero, so
 * parallel decreases queue and each sees the ones committed before it (PostgreSQL and PGlite alike). The grants
 * (subscriptions, purchases, defaults) are computed before the lock: quantity changes never alter them, and the
 * lock is then held for two statements only. Throws ITEM_QUANTITY_INSUFFICIENT_AMOUNT when `!allowNegative` and
 * the result would be below 0.
 */
export async function changeItemQuantity(db: Db, customer: Customer, itemId: string, change: QuantityChange, config: PaymentsConfigSource): Promise<void> {
  const now = new Date();
  const grants = change.allowNegative ? 0 : await grantedQuantity(db, customer, itemId, config, now);
  const work = async (trx: Db) => {
    const key = `payments:${customer.projectId}:${customer.customerType}:${customer.customerId}:${itemId}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    const values = sql`select ${customer.projectId}, ${customer.customerType}, ${customer.customerId}, ${itemId}, ${change.delta}::bigint,
      ${change.description ?? null}::text, ${change.expiresAt ?? null}::timestamptz`;
    const condition = change.allowNegative ? sql`` : sql`where ${changesSum(customer, itemId, now)} + ${grants}::bigint + ${change.delta}::bigint >= 0`;
    const inserted = await sql`insert into payment_item_quantity_changes (project_id, customer_type, customer_id, item_id, quantity, description, expires_at)
      ${values} ${condition} returning id`.execute(trx);
    if (inserted.rows.length === 0) throw new KnownErrors.ItemQuantityInsufficientAmount(itemId, customer.customerId, change.delta);
  };
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}
