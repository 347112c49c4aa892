import { z } from "zod";

/**
 * Wire schemas of `GET /internal/payments/transactions` (issue 32): the reference's `adminTransaction` shape,
 * subscriptions, one-time purchases and item quantity changes newest first, paged by an opaque cursor.
 */

export const TRANSACTION_TYPES = ["subscription", "one_time", "item_quantity_change"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const transactionsQuery = z.object({
  cursor: z.string().optional(),
  /** Clamped to 1…200; 50 when left out or not a number (a decimal string, as query parameters are). */
  limit: z.string().optional(),
  type: z.enum(TRANSACTION_TYPES).optional(),
  customer_type: z.enum(["user", "team", "custom"]).optional(),
});

const interval = z.tuple([z.number(), z.enum(["day", "week", "month", "year"])]);
const amount = z.string().optional();

/** The price paid (without `serverOnly`/`freeTrial`, as the reference answers it); money as decimal strings. */
export const transactionPrice = z.strictObject({
  USD: amount, EUR: amount, GBP: amount, JPY: amount, INR: amount, AUD: amount, CAD: amount,
  interval: interval.optional(),
});

export const adminTransaction = z.strictObject({
  id: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  created_at_millis: z.number(),
  customer_type: z.enum(["user", "team", "custom"]),
  customer_id: z.string(),
  quantity: z.number(),
  test_mode: z.boolean(),
  offer_display_name: z.string().nullable(),
  price: transactionPrice.nullable(),
  status: z.string().nullable(),
  item_id: z.string().optional(),
  description: z.string().nullable().optional(),
  expires_at_millis: z.number().nullable().optional(),
});
export type AdminTransaction = z.infer<typeof adminTransaction>;

export const transactionsResponse = z.strictObject({
  transactions: z.array(adminTransaction),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
