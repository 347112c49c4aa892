import { z } from "zod";

/**
 * Wire schemas of the item routes (issue 32, SPEC.md §7 payments): an item's balance for a customer, quantity
 * changes, and the offers a customer can buy (a Latchkey route for the pricing-table widget).
 */

const itemCustomerType = z.enum(["user", "team", "custom"]);

/** `/payments/items/{customer_type}/{customer_id}/{item_id}` */
export const paymentItemParams = z.object({
  customer_type: itemCustomerType,
  customer_id: z.string(),
  item_id: z.string(),
});

/** An item as a customer holds it: the computed quantity (negative after an allowed overdraw). */
export const paymentItemRead = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  quantity: z.number(),
});
export type PaymentItemRead = z.infer<typeof paymentItemRead>;

/** `allow_negative=true` lets a decrease go below zero (the SDK always sends it, `false` by default). */
export const updateItemQuantityQuery = z.object({ allow_negative: z.enum(["true", "false"]).optional() });

export const updateItemQuantityBody = z.strictObject({
  delta: z.number().multipleOf(1).min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  /** When the change stops counting (an ISO date); absent: never. */
  expires_at: z.string().check((ctx) => {
    if (Number.isNaN(Date.parse(ctx.value))) ctx.issues.push({ code: "custom", message: "must be a valid date", input: ctx.value });
  }).optional(),
  description: z.string().optional(),
});

/** The reference answers a quantity change with its "success" body. */
export const updateItemQuantityResponse = z.strictObject({ success: z.literal(true) });

/** `/payments/offers/{customer_type}/{customer_id}` (Latchkey addition, for widgets). */
export const customerOffersParams = z.object({ customer_type: itemCustomerType, customer_id: z.string() });
export const customerOffersQuery = z.object({ group_id: z.string().optional() });

const interval = z.tuple([z.number(), z.enum(["day", "week", "month", "year"])]);
const amount = z.string().optional();

/** A price as a buyer sees it: decimal strings per currency (never numbers), and its interval for subscriptions. */
export const customerOfferPrice = z.strictObject({
  USD: amount, EUR: amount, GBP: amount, JPY: amount, INR: amount, AUD: amount, CAD: amount,
  interval: interval.optional(),
  free_trial: interval.optional(),
});

export const customerOffer = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  customer_type: itemCustomerType,
  group_id: z.string().nullable(),
  is_add_on_to: z.union([z.literal(false), z.record(z.string(), z.literal(true))]),
  stackable: z.boolean(),
  prices: z.union([z.literal("include-by-default"), z.record(z.string(), customerOfferPrice)]),
  /** Whether the customer holds it now (a live subscription, a one-time purchase, or its group's default). */
  owned: z.boolean(),
});
export type CustomerOffer = z.infer<typeof customerOffer>;

export const customerOffersResponse = z.strictObject({
  items: z.array(customerOffer),
  /** The server has no Stripe key: purchases complete without payment (the pricing table says so). */
  test_mode: z.boolean(),
});
