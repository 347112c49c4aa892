import { z } from "zod";
import { newerField } from "./dialect-fields.js";

/**
 * Wire schemas of the purchase routes (issue 32, SPEC.md §7 payments): purchase URLs, their single-use codes,
 * purchase sessions and test-mode purchases. Money is a decimal string everywhere (never a number).
 */

const CURRENCY_DECIMALS = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2, AUD: 2, CAD: 2 } as const;
export type PaymentCurrency = keyof typeof CURRENCY_DECIMALS;
export const PAYMENT_CURRENCIES = Object.keys(CURRENCY_DECIMALS) as PaymentCurrency[];

const USER_SPECIFIED_ID = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;
const userSpecifiedId = z.string().max(63).regex(USER_SPECIFIED_ID, "must be a valid id");

/** An amount in one currency: digits, no leading zeros, at most the currency's decimals (as the reference checks). */
export function moneyAmountSchema(currency: PaymentCurrency) {
  const decimals = CURRENCY_DECIMALS[currency];
  return z.string().check((ctx) => {
    const match = /^([0-9]+)(\.([0-9]+))?$/.exec(ctx.value);
    const problem = !match
      ? "Money amount must be in the format of <number> or <number>.<number>"
      : match[3] && match[3].length > decimals
        ? `Too many decimals; ${currency} only has ${decimals} decimals`
        : match[1] !== "0" && match[1]!.startsWith("0")
          ? "Money amount must not have leading zeros"
          : undefined;
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });
}

export const dayIntervalSchema = z.tuple([z.number().int().min(0), z.enum(["day", "week", "month", "year"])]);
export const customerTypeSchema = z.enum(["user", "team", "custom"]);

const currencyAmounts = Object.fromEntries(PAYMENT_CURRENCIES.map((c) => [c, moneyAmountSchema(c).optional()])) as Record<PaymentCurrency, z.ZodOptional<z.ZodString>>;

const atLeastOneCurrency = (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
  if (!PAYMENT_CURRENCIES.some((c) => value[c] !== undefined)) ctx.addIssue({ code: "custom", message: "At least one currency is required" });
};

/** A price as the wire has it (snake_case): amounts per currency, `interval` for subscriptions. */
export const wirePriceSchema = z
  .strictObject({ ...currencyAmounts, interval: dayIntervalSchema.optional(), free_trial: dayIntervalSchema.optional() })
  .superRefine(atLeastOneCurrency);

/** The reference's inline offer (`inlineOfferSchema`): what a server may sell without a config entry. */
export const inlineOfferSchema = z.strictObject({
  display_name: z.string(),
  customer_type: customerTypeSchema,
  free_trial: dayIntervalSchema.optional(),
  server_only: z.literal(true).default(true),
  prices: z.record(userSpecifiedId, wirePriceSchema),
  included_items: z.record(
    userSpecifiedId,
    z.strictObject({
      quantity: z.number().optional(),
      repeat: z.union([dayIntervalSchema, z.literal("never")]).optional(),
      expires: z.enum(["never", "when-purchase-expires", "when-repeated"]).optional(),
    }),
  ),
});
export type InlineOffer = z.output<typeof inlineOfferSchema>;

/**
 * 2.8.108's inline product (`inlineProductSchema`): the inline offer renamed, with `stackable` and metadata. The
 * metadata is accepted and not kept (an inline product lives only in its purchase code), as `server_only: false`
 * changes nothing: an inline product is only ever sold through a server's link.
 */
export const inlineProductSchema = inlineOfferSchema.extend({
  server_only: z.boolean().default(true),
  stackable: z.boolean().default(false),
  client_metadata: z.unknown().optional(),
  client_read_only_metadata: z.unknown().optional(),
  server_metadata: z.unknown().optional(),
});
export type InlineProduct = z.output<typeof inlineProductSchema>;

/**
 * `POST /payments/purchases/create-purchase-url`. The inline offer comes as `inline_offer` (what the 2.8.41 SDK
 * sends and SPEC.md names) or `offer_inline` (the reference server's own field name): both mean the same. The
 * 2.8.108 SDK names offers products: `product_id` and `product_inline`. `return_url`: where the purchase page's
 * "done" link leads (a trusted domain); a Latchkey addition in 2.8.41, the protocol's own in 2.8.108.
 */
export const createPurchaseUrlBody = z.strictObject({
  customer_type: customerTypeSchema,
  customer_id: z.string(),
  offer_id: z.string().optional(),
  offer_inline: inlineOfferSchema.optional(),
  inline_offer: inlineOfferSchema.optional(),
  product_id: newerField(z.string().optional()),
  product_inline: newerField(inlineProductSchema.optional()),
  return_url: z.string().optional(),
});

export const createPurchaseUrlResponse = z.strictObject({ url: z.string() });

export const fullCodeBody = z.strictObject({ full_code: z.string() });

const offerPricesAnswer = z.record(
  z.string(),
  z.strictObject({ ...currencyAmounts, interval: dayIntervalSchema.optional(), free_trial: dayIntervalSchema.optional() }),
);

/** `POST /payments/purchases/validate-code` → the offer as the page shows it (client-side prices only). */
export const validatePurchaseCodeResponse = z.strictObject({
  offer: z.strictObject({
    display_name: z.string(),
    customer_type: customerTypeSchema,
    prices: offerPricesAnswer,
    stackable: z.boolean(),
  }),
  stripe_account_id: z.string().nullable(),
  project_id: z.string(),
  already_bought_non_stackable: z.boolean(),
  conflicting_group_offers: z.array(z.strictObject({ offer_id: z.string(), display_name: z.string() })),
  /** Latchkey addition: the server has no Stripe key, so the page completes purchases in test mode. */
  test_mode: z.boolean(),
});

/** `purchase-session`, `test-mode-purchase-session` and `complete-test-mode-purchase`. */
export const purchaseSessionBody = z.strictObject({
  full_code: z.string(),
  price_id: z.string(),
  quantity: z.number().int().min(1).default(1),
});

export const purchaseSessionResponse = z.strictObject({ client_secret: z.string() });
export const emptyPurchaseResponse = z.strictObject({});
