import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { InlineOffer, InlineProduct } from "@latchkey/protocol/schemas";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import { renderProjectConfig, type ConfigObject, type OfferConfig, type ProjectConfig } from "../config/project-config.js";
import type { Db } from "../db/connect.js";
import type { PaymentCreationSource } from "../db/schema-payments.js";
import type { AppDeps, RequestAuth } from "./deps.js";
import type { Customer } from "./payments-ledger.js";
import { assertClientMayActFor, assertCustomerExists } from "./payments-customers.js";
import { getProject } from "./projects.js";
import { createPurchaseCode, findUsablePurchaseCode, releasePurchaseCode, usePurchaseCode, type PurchaseCodeRow } from "./purchase-codes.js";
import { assertPurchasable, offerForPurchase, purchasablePrices, purchaseStanding, wirePrice } from "./purchase-offers.js";
import { offerFromSnapshot } from "./payments-offers.js";
import { stripeAccountIdOf, stripeConfigured } from "./stripe/stripe-client.js";
import { addInterval, ensureStripeCustomer, startStripePurchase, switchStripeSubscription } from "./stripe/stripe-purchases.js";
import { inTransaction } from "./team-access.js";

/**
 * Purchases (issue 32): purchase URLs and their codes, purchase sessions (Stripe), test-mode purchases, and
 * the records a purchase leaves (one-time purchases, subscriptions) that the ledger computes quantities from.
 *
 * Test mode: a server without a Stripe key runs every project's payments in test mode. Purchase URLs are made
 * without a connected account and the purchase page completes purchases itself (complete-test-mode-purchase);
 * `purchase-session`, which needs Stripe, refuses. With a key, a project without a connected account gets the
 * reference's "not set up" 400.
 */

const NOT_SET_UP = "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.";
export const TEST_MODE_SERVER =
  "This server has no Stripe key (LATCHKEY_STRIPE_SECRET_KEY), so its payments run in test mode: complete the purchase with POST /payments/purchases/complete-test-mode-purchase (the purchase page does).";
export const NOT_TEST_MODE_SERVER =
  "This server has a Stripe key, so purchases go through Stripe: test-mode purchases are made by an admin (POST /internal/payments/test-mode-purchase-session).";

/** An admin's test-mode purchase cannot end or change what Stripe bills. */
export const STRIPE_PLAN_TEST_MODE =
  "Customer already has a Stripe subscription in this group; a test-mode purchase cannot replace it. Cancel the current subscription first.";

const plain = (status: 400, message: string) => new HTTPException(status, { message });

const configOf = (project: { config_override: unknown }): ProjectConfig => renderProjectConfig(project.config_override as ConfigObject);
const customerOf = (row: PurchaseCodeRow): Customer => ({ projectId: row.project_id, customerType: row.customer_type, customerId: row.customer_id });

export interface CreatePurchaseUrlInput {
  customer_type: Customer["customerType"];
  customer_id: string;
  offer_id?: string;
  offer_inline?: InlineOffer;
  inline_offer?: InlineOffer;
  /** 2.8.108's names of the same. */
  product_id?: string;
  product_inline?: InlineProduct;
  return_url?: string;
}

/** `create-purchase-url`: the checks in the reference's order, then a code and the page's URL holding it. */
export async function createPurchaseUrl(deps: AppDeps, auth: RequestAuth, body: CreatePurchaseUrlInput): Promise<string> {
  const { db, env } = deps;
  const projectId = auth.project.id;
  const config = configOf(auth.project);
  let stripeAccountId: string | null = null;
  if (stripeConfigured(deps)) {
    stripeAccountId = await stripeAccountIdOf(db, projectId);
    if (!stripeAccountId) throw plain(400, NOT_SET_UP);
  }
  const named = body.product_id !== undefined || body.product_inline !== undefined ? "product" : "offer";
  const requestedId = body.product_id ?? body.offer_id;
  const { offerId, offer } = offerForPurchase(config, auth.type, requestedId, body.product_inline ?? body.offer_inline ?? body.inline_offer, named);
  if (body.customer_type !== offer.customerType) {
    throw new KnownErrors.OfferCustomerTypeDoesNotMatch(requestedId, body.customer_id, offer.customerType, body.customer_type);
  }
  const customer: Customer = { projectId, customerType: body.customer_type, customerId: body.customer_id };
  await assertClientMayActFor(auth, customer, db);
  await assertCustomerExists(db, customer);
  if (body.return_url !== undefined && !isUrlTrustedForProject(env, projectId, config, body.return_url)) {
    throw new KnownErrors.RedirectUrlNotWhitelisted();
  }
  const stripeCustomerId = stripeAccountId
    ? await ensureStripeCustomer(deps, { projectId, stripeAccountId, customerType: customer.customerType, customerId: customer.customerId })
    : null;
  const { fullCode } = await createPurchaseCode(db, {
    projectId,
    customerType: customer.customerType,
    customerId: customer.customerId,
    offerId,
    offer,
    stripeCustomerId,
    stripeAccountId,
  });
  const query = body.return_url !== undefined ? `?${new URLSearchParams({ return_url: body.return_url })}` : "";
  return `${env.publicUrl}/purchase/${encodeURIComponent(fullCode)}${query}`;
}

/** `validate-code`: what the purchase page shows (the offer's purchasable prices) and what stands in the way. */
export async function describePurchaseCode(deps: AppDeps, fullCode: string) {
  return describePurchaseCodeRow(deps, await findUsablePurchaseCode(deps.db, fullCode));
}

/** The same, for a code already found (the purchase page reads the row too). */
export async function describePurchaseCodeRow(deps: AppDeps, row: PurchaseCodeRow) {
  const { db } = deps;
  const config = configOf(await getProject(db, row.project_id));
  const offer = offerFromSnapshot(row.offer);
  const standing = await purchaseStanding(db, customerOf(row), row.offer_id, offer, config);
  const prices = purchasablePrices(row.offer_id, offer);
  return {
    offer: {
      display_name: offer.displayName ?? "Offer",
      customer_type: offer.customerType,
      prices: Object.fromEntries(Object.entries(prices).map(([id, price]) => [id, wirePrice(price)])),
      stackable: offer.stackable === true,
    },
    stripe_account_id: row.stripe_account_id,
    project_id: row.project_id,
    already_bought_non_stackable: standing.alreadyBoughtNonStackable,
    conflicting_group_offers: standing.conflicting.map((o) => ({ offer_id: o.offerId!, display_name: o.offer.displayName ?? o.offerId! })),
    test_mode: !stripeConfigured(deps),
  };
}

export interface PurchaseChoice {
  full_code: string;
  price_id: string;
  quantity: number;
}

/**
 * `purchase-session`: checks the purchase, uses the code up, then starts it at Stripe (a subscription for a
 * price with an interval, a payment intent otherwise); the webhook records it once paid. A plan of a group in
 * which Stripe already bills the customer a plan switches that subscription in place instead (as the
 * reference does). If Stripe cannot be reached the code is given back, so the buyer can try again.
 */
export async function startPurchaseSession(deps: AppDeps, choice: PurchaseChoice): Promise<{ client_secret: string }> {
  const { db } = deps;
  const row = await findUsablePurchaseCode(db, choice.full_code);
  if (!stripeConfigured(deps) || !row.stripe_account_id || !row.stripe_customer_id) throw plain(400, TEST_MODE_SERVER);
  const config = configOf(await getProject(db, row.project_id));
  const offer = offerFromSnapshot(row.offer);
  const standing = await purchaseStanding(db, customerOf(row), row.offer_id, offer, config);
  const price = assertPurchasable(purchasablePrices(row.offer_id, offer), offer, choice.price_id, choice.quantity, standing);
  const replaces = standing.conflicting.flatMap((o) => o.subscriptionId ?? []);
  // assertPurchasable refused a one-time price in a group with a subscription: a price with an interval here.
  const billed = await stripeBilled(db, replaces);
  await usePurchaseCode(db, row);
  let started: { client_secret: string };
  try {
    const input = {
      projectId: row.project_id,
      stripeAccountId: row.stripe_account_id,
      stripeCustomerId: row.stripe_customer_id,
      customer: customerOf(row),
      offerId: row.offer_id,
      offer,
      priceId: choice.price_id,
      price,
      quantity: choice.quantity,
    };
    // One plan per group: at most one running Stripe subscription can be in it (the newest, should there be more).
    started = billed[0] ? await switchStripeSubscription(deps, { ...input, stripeSubscriptionId: billed[0].stripeSubscriptionId }) : await startStripePurchase(deps, input);
  } catch (error) {
    // Stripe's failures come as a clear 502/503 (callStripe); nothing was bought, so the link works again.
    await releasePurchaseCode(db, row);
    throw error;
  }
  // As the reference does: the test-mode subscriptions of the group that this subscription replaces end now
  // (a switched Stripe subscription goes on, with its new plan, as the webhook will record).
  const switched = new Set(billed.slice(0, 1).map((b) => b.id));
  await cancelSubscriptions(db, customerOf(row), replaces.filter((id) => !switched.has(id)), new Date());
  return started;
}

/**
 * Completes a purchase without Stripe, marked TEST_MODE: a one-time purchase, or a subscription active for one
 * interval that replaces the customer's subscription in the same group. `adminProjectId`: the admin route,
 * which may use server-only prices but only its own project's codes.
 */
export async function completeTestModePurchase(deps: AppDeps, choice: PurchaseChoice, adminProjectId?: string): Promise<void> {
  const { db } = deps;
  const row = await findUsablePurchaseCode(db, choice.full_code);
  if (adminProjectId !== undefined && row.project_id !== adminProjectId) throw plain(400, "Tenancy id does not match value from code data");
  const config = configOf(await getProject(db, row.project_id));
  const offer = offerFromSnapshot(row.offer);
  const prices = adminProjectId !== undefined && offer.prices !== "include-by-default" ? offer.prices : purchasablePrices(row.offer_id, offer);
  const customer = customerOf(row);
  await inTransaction(db, async (trx) => {
    // First, so that of racing requests one goes on; a refusal below rolls the use back with the transaction.
    await usePurchaseCode(trx, row);
    const standing = await purchaseStanding(trx, customer, row.offer_id, offer, config);
    const price = assertPurchasable(prices, offer, choice.price_id, choice.quantity, standing);
    const purchase = { customer, offerId: row.offer_id, offer, priceId: choice.price_id, quantity: choice.quantity };
    if (price.interval) {
      const replaces = standing.conflicting.flatMap((o) => o.subscriptionId ?? []);
      if ((await stripeBilled(trx, replaces)).length > 0) throw plain(400, STRIPE_PLAN_TEST_MODE);
      await recordTestModeSubscription(trx, { ...purchase, interval: price.interval, replaces });
    } else {
      await recordOneTimePurchase(trx, { ...purchase, creationSource: "TEST_MODE" });
    }
  });
}

export interface OneTimePurchase {
  customer: Customer;
  offerId: string | null;
  offer: OfferConfig;
  priceId: string | null;
  quantity: number;
  stripePaymentIntentId?: string;
  creationSource: PaymentCreationSource;
}

/** Records a one-time purchase; once per Stripe payment intent however often its event arrives. True if recorded now. */
export async function recordOneTimePurchase(db: Db, purchase: OneTimePurchase): Promise<boolean> {
  const inserted = await db
    .insertInto("payment_one_time_purchases")
    .values({
      project_id: purchase.customer.projectId,
      customer_type: purchase.customer.customerType,
      customer_id: purchase.customer.customerId,
      offer_id: purchase.offerId,
      offer: JSON.stringify(purchase.offer),
      price_id: purchase.priceId,
      quantity: purchase.quantity,
      stripe_payment_intent_id: purchase.stripePaymentIntentId ?? null,
      creation_source: purchase.creationSource,
    })
    .onConflict((oc) => oc.columns(["project_id", "stripe_payment_intent_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface TestModeSubscription {
  customer: Customer;
  offerId: string | null;
  offer: OfferConfig;
  priceId: string;
  quantity: number;
  interval: [number, "day" | "week" | "month" | "year"];
  /** The customer's subscriptions in the same group that this one replaces: canceled. */
  replaces: string[];
  now?: Date;
}

/** A test-mode subscription, active from now for one interval; the subscriptions it replaces are canceled. */
export async function recordTestModeSubscription(db: Db, subscription: TestModeSubscription): Promise<void> {
  const now = subscription.now ?? new Date();
  const { customer } = subscription;
  await inTransaction(db, async (trx) => {
    await cancelSubscriptions(trx, customer, subscription.replaces, now);
    await trx
      .insertInto("payment_subscriptions")
      .values({
        project_id: customer.projectId,
        customer_type: customer.customerType,
        customer_id: customer.customerId,
        offer_id: subscription.offerId,
        offer: JSON.stringify(subscription.offer),
        price_id: subscription.priceId,
        quantity: subscription.quantity,
        status: "active",
        current_period_start: now,
        current_period_end: addInterval(now, subscription.interval),
        creation_source: "TEST_MODE",
      })
      .execute();
  });
}

/** Ends the customer's subscriptions of these ids now (status canceled). */
async function cancelSubscriptions(db: Db, customer: Customer, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("payment_subscriptions")
    .set({ status: "canceled", updated_at: now })
    .where("project_id", "=", customer.projectId)
    .where("customer_type", "=", customer.customerType)
    .where("customer_id", "=", customer.customerId)
    .where("id", "in", ids)
    .execute();
}

/** Which of these subscriptions Stripe bills (the newest first): a purchase in their group switches them at Stripe. */
async function stripeBilled(db: Db, ids: string[]): Promise<{ id: string; stripeSubscriptionId: string }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("payment_subscriptions")
    .select(["id", "stripe_subscription_id"])
    .where("id", "in", ids)
    .where("stripe_subscription_id", "is not", null)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((r) => ({ id: r.id, stripeSubscriptionId: r.stripe_subscription_id! }));
}
