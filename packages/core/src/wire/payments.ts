/**
 * Payments on the wire (issue 32, the reference's `/payments/*` and `/internal/payments/*` routes): items, offers
 * with their prices, transactions. Money stays the decimal string the server sends ("9.99"): a float would round
 * it, and the widgets only display it (Intl.NumberFormat reads decimal strings exactly).
 */

/** Who holds items and buys offers: a user, a team, or an id of the app's own (e.g. an organisation elsewhere). */
export type CustomerType = "user" | "team" | "custom";

/** A customer by type and id; `{ type: "user" }` without an id (client apps) means the signed-in user. */
export interface Customer {
  type: CustomerType;
  id: string;
}

/** How many of an item a customer holds now (`quantity` may be negative after a forced decrease). */
export interface Item {
  id: string;
  displayName: string;
  quantity: number;
  /** `quantity`, or 0 when it is negative: what a page shows as a balance. */
  nonNegativeQuantity: number;
}

export interface WireItem {
  id: string;
  display_name: string;
  quantity: number;
}

export function itemFromWire(wire: WireItem): Item {
  return { id: wire.id, displayName: wire.display_name, quantity: wire.quantity, nonNegativeQuantity: Math.max(0, wire.quantity) };
}

/** A repeat interval or trial length as the config writes it: `[1, "month"]`. */
export type Interval = [number, "day" | "week" | "month" | "year"];

/** The currencies a price may be given in (the reference's list). */
export const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "INR", "AUD", "CAD"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** One price of an offer: an amount (decimal string) per currency, and for subscriptions their interval. */
export interface Price {
  id: string;
  amounts: Partial<Record<Currency, string>>;
  /** Absent for a one-time price. */
  interval?: Interval;
  freeTrial?: Interval;
}

/** An offer a widget may show a customer (the Latchkey route `GET /payments/offers/{type}/{id}`). */
export interface Offer {
  id: string;
  displayName: string;
  customerType: CustomerType;
  groupId: string | null;
  /** The offers this one adds to (it can be bought only with one of them), or false. */
  isAddOnTo: false | string[];
  stackable: boolean;
  /** `"include-by-default"`: the group's free plan, held by every customer with no other offer of the group. */
  prices: Price[] | "include-by-default";
  /** Whether the customer holds it now (a running subscription, a purchase, or the group's default). */
  owned: boolean;
}

/** What the offers store holds: the offers, and whether the server runs payments in test mode (no Stripe key). */
export interface OfferList {
  offers: Offer[];
  /** Purchases complete without payment (the hosted page's "Complete test purchase"): widgets say so. */
  testMode: boolean;
}

type WirePriceAmounts = Partial<Record<Currency, string>> & { interval?: Interval; free_trial?: Interval };

export interface WireOffer {
  id: string;
  display_name: string;
  customer_type: CustomerType;
  group_id: string | null;
  is_add_on_to: false | Record<string, true>;
  stackable: boolean;
  prices: "include-by-default" | Record<string, WirePriceAmounts>;
  owned: boolean;
}

export function offerFromWire(wire: WireOffer): Offer {
  return {
    id: wire.id,
    displayName: wire.display_name,
    customerType: wire.customer_type,
    groupId: wire.group_id,
    isAddOnTo: wire.is_add_on_to === false ? false : Object.keys(wire.is_add_on_to),
    stackable: wire.stackable,
    prices: wire.prices === "include-by-default" ? wire.prices : Object.entries(wire.prices).map(([id, price]) => priceFromWire(id, price)),
    owned: wire.owned,
  };
}

function priceFromWire(id: string, wire: WirePriceAmounts): Price {
  const amounts: Partial<Record<Currency, string>> = {};
  for (const currency of CURRENCIES) if (typeof wire[currency] === "string") amounts[currency] = wire[currency];
  return { id, amounts, ...(wire.interval ? { interval: wire.interval } : {}), ...(wire.free_trial ? { freeTrial: wire.free_trial } : {}) };
}

/** A row of the project's payments history (`GET /internal/payments/transactions`). */
export interface Transaction {
  id: string;
  type: "subscription" | "one_time" | "item_quantity_change";
  createdAt: Date;
  customerType: CustomerType;
  customerId: string;
  quantity: number;
  testMode: boolean;
  offerDisplayName: string | null;
  /** The price paid (amounts as decimal strings, interval for subscriptions); null for item quantity changes. */
  price: { amounts: Partial<Record<Currency, string>>; interval?: Interval } | null;
  status: string | null;
  itemId?: string;
  description?: string | null;
  expiresAt?: Date | null;
}

export interface WireTransaction {
  id: string;
  type: Transaction["type"];
  created_at_millis: number;
  customer_type: CustomerType;
  customer_id: string;
  quantity: number;
  test_mode: boolean;
  offer_display_name: string | null;
  price: WirePriceAmounts | null;
  status: string | null;
  item_id?: string;
  description?: string | null;
  expires_at_millis?: number | null;
}

export function transactionFromWire(wire: WireTransaction): Transaction {
  const price = wire.price ? priceFromWire("", wire.price) : null;
  return {
    id: wire.id,
    type: wire.type,
    createdAt: new Date(wire.created_at_millis),
    customerType: wire.customer_type,
    customerId: wire.customer_id,
    quantity: wire.quantity,
    testMode: wire.test_mode,
    offerDisplayName: wire.offer_display_name,
    price: price ? { amounts: price.amounts, ...(price.interval ? { interval: price.interval } : {}) } : null,
    status: wire.status,
    ...(wire.item_id === undefined ? {} : { itemId: wire.item_id }),
    ...(wire.description === undefined ? {} : { description: wire.description }),
    ...(wire.expires_at_millis === undefined ? {} : { expiresAt: wire.expires_at_millis === null ? null : new Date(wire.expires_at_millis) }),
  };
}

/** The path of a customer's item (ids are escaped: custom customer ids are the app's own strings). */
export function itemPath(customer: Customer, itemId: string): string {
  return `/payments/items/${customer.type}/${encodeURIComponent(customer.id)}/${encodeURIComponent(itemId)}`;
}
