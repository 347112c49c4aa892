import type Stripe from "stripe";
import { sql } from "kysely";
import { renderProjectConfig } from "../../config/project-config.js";
import type { ConfigObject } from "../../config/config-format.js";
import type { Db } from "../../db/connect.js";
import type { PaymentCustomerType } from "../../db/schema-payments.js";
import type { AppDeps } from "../deps.js";
import { isStripeMockMode } from "./stripe-client.js";
import { offerFromMetadata } from "./stripe-metadata.js";
import { recordStripeOneTimePurchase } from "./stripe-one-time.js";

/**
 * What Stripe's webhook events do (issue 32). Both kinds of work are idempotent, so a replayed or late event
 * changes nothing and events arriving out of order end in Stripe's current state:
 * - `payment_intent.succeeded` of a one-time purchase records it, once per payment intent;
 * - every subscription, invoice, checkout and payment-intent event re-reads the customer's subscriptions from
 *   Stripe (not from the event, which may be stale) and writes them over payment_subscriptions.
 */

type Calls = ReturnType<typeof stripeCalls>;
type MockData = Partial<Record<"accounts.retrieve" | "customers.retrieve" | "subscriptions.list", Record<string, unknown>>>;

const CUSTOMER_TYPES = new Set<PaymentCustomerType>(["user", "team", "custom"]);

/** Whether an event type moves a customer's subscriptions (the families the reference listens to). */
function resyncsSubscriptions(type: string): boolean {
  return /^(customer\.subscription|invoice|checkout\.session|payment_intent)\./.test(type);
}

export async function handleStripeEvent(deps: Pick<AppDeps, "db" | "env" | "log">, stripe: Stripe, event: Stripe.Event): Promise<void> {
  const object = event.data.object as unknown as Record<string, unknown>;
  // The reference's test hook: only with dev mode's mock key, never in any other mode.
  const mock = isStripeMockMode(deps) && isRecord(object.stack_stripe_mock_data) ? (object.stack_stripe_mock_data as MockData) : {};
  const calls = stripeCalls(stripe, mock);
  const accountId = event.account;
  if (!accountId) return deps.log.info({ type: event.type }, "Stripe event without a connected account: ignored");
  if (!resyncsSubscriptions(event.type)) return;
  const projectId = await projectOfAccount(deps.db, calls, accountId);
  if (!projectId) return deps.log.warn({ type: event.type, accountId }, "Stripe event for an account of no project: ignored");

  if (event.type === "payment_intent.succeeded") {
    const intent = event.data.object as Stripe.PaymentIntent;
    if (intent.metadata?.purchaseKind === "ONE_TIME") await recordStripeOneTimePurchase(deps.db, projectId, intent);
  }
  const customer = object.customer;
  const stripeCustomerId = typeof customer === "string" ? customer : isRecord(customer) && typeof customer.id === "string" ? customer.id : null;
  if (stripeCustomerId) await syncCustomerSubscriptions(deps.db, calls, { projectId, accountId, stripeCustomerId });
}

/** The three Stripe reads the webhook makes, with the mock data merged into their results (dev mode only). */
function stripeCalls(stripe: Stripe, mock: MockData) {
  const merge = <T>(result: T, extra: Record<string, unknown> | undefined): T => (extra ? { ...result, ...extra } : result);
  return {
    retrieveAccount: async (id: string) => merge(await stripe.accounts.retrieve(id), mock["accounts.retrieve"]),
    retrieveCustomer: async (id: string, account: string) => merge(await stripe.customers.retrieve(id, {}, { stripeAccount: account }), mock["customers.retrieve"]),
    // One page of 100: a customer's subscriptions bought through Latchkey number a handful (one per group and add-on).
    listSubscriptions: async (customer: string, account: string) =>
      merge(await stripe.subscriptions.list({ customer, status: "all", limit: 100 }, { stripeAccount: account }), mock["subscriptions.list"]),
  };
}

/** The project whose connected account it is: ours from setup, else what the account's metadata names. */
async function projectOfAccount(db: Db, calls: Calls, accountId: string): Promise<string | null> {
  const row = await db.selectFrom("payment_stripe_accounts").select("project_id").where("stripe_account_id", "=", accountId).executeTakeFirst();
  if (row) return row.project_id;
  const account = await calls.retrieveAccount(accountId);
  const named = account.metadata?.projectId ?? account.metadata?.tenancyId;
  if (!named) return null;
  const project = await db.selectFrom("projects").select("id").where("id", "=", named).executeTakeFirst();
  return project?.id ?? null;
}

/**
 * Writes the customer's subscriptions as Stripe has them now. Runs under a per-customer lock, so that two
 * events handled at once cannot write an older listing over a newer one.
 */
async function syncCustomerSubscriptions(db: Db, calls: Calls, input: { projectId: string; accountId: string; stripeCustomerId: string }): Promise<void> {
  const customer = await calls.retrieveCustomer(input.stripeCustomerId, input.accountId);
  if ((customer as { deleted?: boolean }).deleted) return;
  const metadata = (customer as Stripe.Customer).metadata ?? {};
  const customerType = metadata.customerType as PaymentCustomerType;
  const customerId = metadata.customerId;
  // A customer the project's own Stripe use made, not a Latchkey purchase: nothing of ours to mirror.
  if (!CUSTOMER_TYPES.has(customerType) || !customerId) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`stripe-sync:${input.projectId}:${input.stripeCustomerId}`}))`.execute(trx);
    const listing = await calls.listSubscriptions(input.stripeCustomerId, input.accountId);
    let configOffers: Record<string, unknown> | undefined;
    for (const subscription of listing.data ?? []) {
      const offerId = subscription.metadata?.offerId || null;
      let offer = offerFromMetadata(subscription.metadata);
      if (!offer && offerId === null) continue; // not bought through Latchkey
      if (!offer) {
        configOffers ??= await offersOf(trx, input.projectId);
        offer = (configOffers[offerId!] as Record<string, unknown> | undefined) ?? {};
      }
      const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & Record<string, unknown>) | undefined;
      const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
      // Stripe's API moved the period onto the items; older payloads (and mocks) still carry it on the subscription.
      const periodStart = item?.current_period_start ?? legacy.current_period_start ?? subscription.start_date ?? subscription.created;
      const periodEnd = item?.current_period_end ?? legacy.current_period_end ?? null;
      const values = {
        offer_id: offerId,
        offer: JSON.stringify(offer),
        price_id: subscription.metadata?.priceId || null,
        quantity: Math.max(1, item?.quantity ?? 1),
        status: subscription.status,
        current_period_start: new Date(periodStart * 1000),
        current_period_end: periodEnd === null ? null : new Date(periodEnd * 1000),
        cancel_at_period_end: subscription.cancel_at_period_end === true,
        updated_at: new Date(),
      };
      await trx
        .insertInto("payment_subscriptions")
        .values({ ...values, project_id: input.projectId, customer_type: customerType, customer_id: customerId, stripe_subscription_id: subscription.id, creation_source: "PURCHASE_PAGE" })
        .onConflict((oc) => oc.columns(["project_id", "stripe_subscription_id"]).doUpdateSet(values))
        .execute();
    }
  });
}

async function offersOf(db: Db, projectId: string): Promise<Record<string, unknown>> {
  const project = await db.selectFrom("projects").select("config_override").where("id", "=", projectId).executeTakeFirstOrThrow();
  return renderProjectConfig(project.config_override as ConfigObject).payments.offers as Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
