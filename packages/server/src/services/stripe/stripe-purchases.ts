import type Stripe from "stripe";
import { HTTPException } from "hono/http-exception";
import type { OfferConfig, OfferPriceConfig } from "../../config/project-config.js";
import type { PaymentCustomerType } from "../../db/schema-payments.js";
import type { AppDeps } from "../deps.js";
import { callStripe, stripeFor } from "./stripe-client.js";
import { chargeCurrency, toMinorUnits } from "./stripe-money.js";
import { offerMetadata } from "./stripe-metadata.js";

/**
 * Purchases through Stripe (issue 32), called by the purchase-session route once the purchase code is checked:
 * the customer's Stripe customer on the project's connected account, then a subscription (a price with an
 * interval) or a payment intent whose client secret the purchase page confirms with Stripe's Payment Element.
 * Nothing is recorded here: Stripe's webhook events record the purchase once it is paid
 * (services/stripe/stripe-webhooks.ts), from the metadata written here.
 */

type Customer = { projectId: string; customerType: PaymentCustomerType; customerId: string };

async function requireStripe(deps: Pick<AppDeps, "env">): Promise<Stripe> {
  const stripe = await stripeFor(deps);
  // Callers take the test-mode path without a key; reaching here without one is a bug, not a user error.
  if (!stripe) throw new Error("Stripe purchase started on a server without LATCHKEY_STRIPE_SECRET_KEY");
  return stripe;
}

/**
 * The Stripe customer for a Latchkey customer on the connected account, made on first use (metadata
 * customerType and customerId, as the reference writes them). Parallel first purchases make one: Stripe's
 * idempotency key gives them the same customer, and the mapping row is written once.
 */
export async function ensureStripeCustomer(
  deps: Pick<AppDeps, "env" | "db">,
  input: { projectId: string; stripeAccountId: string; customerType: PaymentCustomerType; customerId: string },
): Promise<string> {
  const key = (db: AppDeps["db"]) =>
    db
      .selectFrom("payment_stripe_customers")
      .select("stripe_customer_id")
      .where("project_id", "=", input.projectId)
      .where("stripe_account_id", "=", input.stripeAccountId)
      .where("customer_type", "=", input.customerType)
      .where("customer_id", "=", input.customerId)
      .executeTakeFirst();
  const known = await key(deps.db);
  if (known) return known.stripe_customer_id;
  const stripe = await requireStripe(deps);
  const created = await callStripe("create the customer", () =>
    stripe.customers.create(
      { metadata: { customerType: input.customerType, customerId: input.customerId, projectId: input.projectId } },
      {
        stripeAccount: input.stripeAccountId,
        idempotencyKey: `latchkey-customer-${input.projectId}-${input.customerType}-${input.customerId}`,
      },
    ),
  );
  await deps.db
    .insertInto("payment_stripe_customers")
    .values({ project_id: input.projectId, stripe_account_id: input.stripeAccountId, customer_type: input.customerType, customer_id: input.customerId, stripe_customer_id: created.id })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return (await key(deps.db))!.stripe_customer_id;
}

export interface StripePurchaseInput {
  projectId: string;
  stripeAccountId: string;
  stripeCustomerId: string;
  customer: Customer;
  /** null for an inline offer, whose snapshot then travels in the metadata. */
  offerId: string | null;
  offer: OfferConfig;
  priceId: string;
  price: OfferPriceConfig;
  quantity: number;
}

/**
 * A subscription for a price with an interval (incomplete until its first invoice is paid), a payment intent
 * for the amount × quantity otherwise. Answers the client secret the purchase page confirms; a subscription
 * whose first invoice needs no payment (a free trial) has none, answered as "" as the reference does.
 */
export async function startStripePurchase(deps: Pick<AppDeps, "env">, input: StripePurchaseInput): Promise<{ client_secret: string }> {
  const stripe = await requireStripe(deps);
  const charge = chargeCurrency(input.price);
  if (!charge) throw new HTTPException(400, { message: `Price ${JSON.stringify(input.priceId)} has no amount in any currency.` });
  const unitAmount = toMinorUnits(charge.amount, charge.currency);
  const options = { stripeAccount: input.stripeAccountId };
  const metadata = purchaseMetadata(input);
  if (input.price.interval) {
    const trial = input.price.freeTrial ?? input.offer.freeTrial;
    const priceData = await recurringPriceData(stripe, input, charge.currency, unitAmount);
    const subscription = await callStripe("create the subscription", () =>
      stripe.subscriptions.create(
        {
          customer: input.stripeCustomerId,
          payment_behavior: "default_incomplete",
          payment_settings: { save_default_payment_method: "on_subscription" },
          expand: ["latest_invoice.confirmation_secret"],
          items: [{ price_data: priceData, quantity: input.quantity }],
          ...(trial && { trial_end: Math.floor(addInterval(new Date(), trial).getTime() / 1000) }),
          metadata,
        },
        options,
      ),
    );
    const invoice = subscription.latest_invoice as Stripe.Invoice | null;
    return { client_secret: invoice?.confirmation_secret?.client_secret ?? "" };
  }
  const intent = await callStripe("create the payment intent", () =>
    stripe.paymentIntents.create(
      {
        amount: minorUnitsNumber(unitAmount * BigInt(input.quantity)),
        currency: charge.currency.toLowerCase(),
        customer: input.stripeCustomerId,
        automatic_payment_methods: { enabled: true },
        metadata: { ...metadata, purchaseQuantity: String(input.quantity), purchaseKind: "ONE_TIME" },
      },
      options,
    ),
  );
  if (!intent.client_secret) throw new HTTPException(502, { message: "Stripe answered a payment intent without a client secret." });
  return { client_secret: intent.client_secret };
}

const purchaseMetadata = (input: StripePurchaseInput): Record<string, string> => ({
  ...offerMetadata(input.offerId, input.offer),
  priceId: input.priceId,
  customerType: input.customer.customerType,
  customerId: input.customer.customerId,
  projectId: input.projectId,
});

/** A recurring price for the subscription's item, on a product named after the offer (as the reference does). */
async function recurringPriceData(stripe: Stripe, input: StripePurchaseInput, currency: string, unitAmount: bigint) {
  const [count, unit] = input.price.interval!;
  const product = await callStripe("create the product", () =>
    stripe.products.create({ name: input.offer.displayName || "Subscription" }, { stripeAccount: input.stripeAccountId }),
  );
  return { currency: currency.toLowerCase(), unit_amount: minorUnitsNumber(unitAmount), product: product.id, recurring: { interval: unit, interval_count: count } };
}

/**
 * Switches the customer's running Stripe subscription of the group to another plan in place, as the reference
 * does: its item gets the new price and quantity and its metadata the new offer, with Stripe's default proration
 * (the unused time is credited; with the same interval on the next invoice, with another interval on an invoice
 * now, the billing cycle starting again). Answers the client secret of an invoice the buyer must pay now, or ""
 * when nothing is due now. The webhook's events record the switch, as for a new subscription. A free trial is
 * not given again to a customer already subscribed.
 */
export async function switchStripeSubscription(
  deps: Pick<AppDeps, "env">,
  input: StripePurchaseInput & { stripeSubscriptionId: string },
): Promise<{ client_secret: string }> {
  const stripe = await requireStripe(deps);
  const charge = chargeCurrency(input.price);
  if (!charge || !input.price.interval) throw new HTTPException(400, { message: `Price ${JSON.stringify(input.priceId)} has no amount in any currency.` });
  const options = { stripeAccount: input.stripeAccountId };
  const current = await callStripe("read the subscription", () => stripe.subscriptions.retrieve(input.stripeSubscriptionId, {}, options));
  const item = current.items.data[0];
  if (!item) throw new HTTPException(502, { message: "Stripe answered a subscription without items." });
  const priceData = await recurringPriceData(stripe, input, charge.currency, toMinorUnits(charge.amount, charge.currency));
  // Stripe merges metadata; the old offer's keys the new one does not write are removed ("" deletes a key).
  const metadata = purchaseMetadata(input);
  for (const key of Object.keys(current.metadata ?? {})) if (!(key in metadata) && /^(offerId|offer|offer_\d+)$/.test(key)) metadata[key] = "";
  const updated = await callStripe("switch the subscription", () =>
    stripe.subscriptions.update(
      input.stripeSubscriptionId,
      {
        items: [{ id: item.id, price_data: priceData, quantity: input.quantity }],
        // Payment due now (another interval) waits for the buyer on the purchase page, as a new subscription's does.
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        expand: ["latest_invoice.confirmation_secret"],
        metadata,
      },
      options,
    ),
  );
  const invoice = updated.latest_invoice as Stripe.Invoice | null;
  return { client_secret: invoice?.status === "open" ? (invoice.confirmation_secret?.client_secret ?? "") : "" };
}

/** An integer count of minor units as the number Stripe's API takes; beyond 2^53 it could not be exact. */
function minorUnitsNumber(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new HTTPException(400, { message: "The amount is too large to charge." });
  return Number(amount);
}

/** `date` moved on by a day interval, in calendar terms (a month from 31 January is 3 March, as Date does). */
export function addInterval(date: Date, [count, unit]: [number, "day" | "week" | "month" | "year"]): Date {
  const next = new Date(date);
  if (unit === "day") next.setUTCDate(next.getUTCDate() + count);
  else if (unit === "week") next.setUTCDate(next.getUTCDate() + 7 * count);
  else if (unit === "month") next.setUTCMonth(next.getUTCMonth() + count);
  else next.setUTCFullYear(next.getUTCFullYear() + count);
  return next;
}
