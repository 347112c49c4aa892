import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferConfig, OfferPriceConfig } from "../src/config/project-config.js";
import { ensureStripeCustomer, startStripePurchase } from "../src/services/stripe/stripe-purchases.js";
import { toMinorUnits } from "../src/services/stripe/stripe-money.js";
import { api } from "./support/api.js";
import { startStripeStandIn, type StripeStandIn } from "./support/stripe-stand-in.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

/**
 * Stripe for real (issue 32): the server's own `stripe` client against the Stripe stand-in — Connect setup,
 * account status and sessions, purchases as payment intents and subscriptions, and the signed webhook that
 * records them once, in the right state, whatever order and however often Stripe delivers.
 */

let stripe: StripeStandIn;
let server: TestServer;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  server = await startTestServer({ LATCHKEY_STRIPE_SECRET_KEY: stripe.secretKey, LATCHKEY_STRIPE_API_URL: stripe.url, LATCHKEY_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await stripe?.stop();
});

const admin = (project: TestProject, path: string, method = "GET") =>
  api(server.url, path, { method, headers: project.headers("admin"), ...(method === "POST" && { body: {} }) });
/** For answers that may be 5xx on purpose (an outage), which api() would refuse. */
const rawAdmin = (project: TestProject, path: string, method = "POST") =>
  fetch(`${server.url}/api/v1${path}`, { method, headers: { ...project.headers("admin"), "content-type": "application/json" }, ...(method === "POST" && { body: "{}" }) });

async function connectedProject(): Promise<{ project: TestProject; accountId: string }> {
  const project = await createTestProject(server, "Shop");
  expect((await admin(project, "/internal/payments/setup", "POST")).status).toBe(200);
  const row = await server.db.selectFrom("payment_stripe_accounts").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
  return { project, accountId: row.stripe_account_id };
}

const OFFER: OfferConfig = {
  displayName: "Credits pack",
  customerType: "user",
  serverOnly: false,
  stackable: true,
  isAddOnTo: false,
  prices: { once: { USD: "19.99", serverOnly: false }, monthly: { USD: "9", interval: [1, "month"], serverOnly: false } },
  includedItems: { credits: { quantity: 100, repeat: "never", expires: "never" } },
};

async function purchase(accountId: string, projectId: string, priceId: "once" | "monthly", options: { quantity?: number; offer?: OfferConfig; customerId?: string } = {}) {
  const customer = { projectId, customerType: "user" as const, customerId: options.customerId ?? crypto.randomUUID() };
  const stripeCustomerId = await ensureStripeCustomer(server, { projectId, stripeAccountId: accountId, customerType: "user", customerId: customer.customerId });
  const offer = options.offer ?? OFFER;
  const price = (offer.prices as Record<string, OfferPriceConfig>)[priceId]!;
  const { client_secret } = await startStripePurchase(server, { projectId, stripeAccountId: accountId, stripeCustomerId, customer, offerId: "credits_pack", offer, priceId, price, quantity: options.quantity ?? 1 });
  return { customer, stripeCustomerId, clientSecret: client_secret };
}

const subscriptionsOf = (projectId: string, customerId: string) =>
  server.db.selectFrom("payment_subscriptions").selectAll().where("project_id", "=", projectId).where("customer_id", "=", customerId).execute();

describe("Stripe Connect setup", () => {
  it("creates the project's connected account once and answers onboarding links back to the dashboard; account info follows onboarding", async () => {
    const project = await createTestProject(server, "Shop");
    const before = await admin(project, "/internal/payments/stripe/account-info");
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ code: "STRIPE_ACCOUNT_INFO_NOT_FOUND", error: "Stripe account information not found. Please make sure the user has onboarded with Stripe." });

    const first = await admin(project, "/internal/payments/setup", "POST");
    expect(first.status).toBe(200);
    const link = new URL(first.body.url);
    expect(link.origin).toBe(stripe.url);
    expect(link.searchParams.get("return_url")).toBe(`${server.env.publicUrl}/dashboard/projects/${project.projectId}/payments`);
    const again = await admin(project, "/internal/payments/setup", "POST");
    expect(again.status).toBe(200);
    const accountId = link.pathname.split("/").pop()!;
    expect(new URL(again.body.url).pathname).toBe(`/setup/${accountId}`);
    expect(accountId).toMatch(/^acct_/);
    expect([...stripe.accounts.values()].filter((a) => a.metadata.projectId === project.projectId)).toHaveLength(1);

    const pending = await admin(project, "/internal/payments/stripe/account-info");
    expect(pending.body).toEqual({ account_id: accountId, charges_enabled: false, details_submitted: false, payouts_enabled: false });
    stripe.completeOnboarding(accountId);
    const done = await admin(project, "/internal/payments/stripe/account-info");
    expect(done.body).toEqual({ account_id: accountId, charges_enabled: true, details_submitted: true, payouts_enabled: true });
  });

  it("parallel setups of one project end with one connected account", async () => {
    const project = await createTestProject(server, "Shop");
    const answers = await Promise.all(Array.from({ length: 6 }, () => admin(project, "/internal/payments/setup", "POST")));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => new URL(a.body.url).pathname)).size).toBe(1);
    expect([...stripe.accounts.values()].filter((a) => a.metadata.projectId === project.projectId)).toHaveLength(1);
  });

  it("opens account sessions for Stripe's embedded components, after setup only", async () => {
    const fresh = await createTestProject(server, "Shop");
    const refused = await admin(fresh, "/internal/payments/stripe-widgets/account-session", "POST");
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("STRIPE_ACCOUNT_INFO_NOT_FOUND");
    const { project, accountId } = await connectedProject();
    const session = await admin(project, "/internal/payments/stripe-widgets/account-session", "POST");
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ client_secret: expect.stringMatching(/^accs_secret__/) });
    expect(stripe.requests.findLast((r) => r.path === "/v1/account_sessions")?.params).toMatchObject({ account: accountId, components: { payments: { enabled: "true" } } });
  });
});

describe("purchases through Stripe", () => {
  it("a one-time purchase is a payment intent for the price × quantity in minor units, on the connected account, with the reference's metadata", async () => {
    const { project, accountId } = await connectedProject();
    const { customer, stripeCustomerId, clientSecret } = await purchase(accountId, project.projectId, "once", { quantity: 3 });
    // The same Latchkey customer keeps its Stripe customer.
    expect(await ensureStripeCustomer(server, { projectId: project.projectId, stripeAccountId: accountId, customerType: "user", customerId: customer.customerId })).toBe(stripeCustomerId);
    expect(stripe.objects.get(stripeCustomerId)).toMatchObject({ account: accountId, metadata: { customerType: "user", customerId: customer.customerId } });
    const intent = stripe.paymentIntentOfSecret(clientSecret);
    // 19.99 × 3 = 59.97, exactly: 5997 cents, never 5996.999… through a float.
    expect(intent).toMatchObject({ account: accountId, amount: 5997, currency: "usd", customer: stripeCustomerId });
    expect(intent.metadata).toMatchObject({ offerId: "credits_pack", priceId: "once", customerType: "user", customerId: customer.customerId, purchaseQuantity: "3", purchaseKind: "ONE_TIME" });
    expect(JSON.parse(intent.metadata.offer)).toEqual(OFFER);
  });

  it("the same payment_intent.succeeded delivered 5 times (3 at once) records one purchase", async () => {
    const { project, accountId } = await connectedProject();
    const { customer, clientSecret } = await purchase(accountId, project.projectId, "once", { quantity: 2 });
    const intent = stripe.succeedPaymentIntent(stripe.paymentIntentOfSecret(clientSecret).id);
    const event = { id: `evt_${crypto.randomUUID()}`, type: "payment_intent.succeeded", account: accountId, object: intent };
    const parallel = await Promise.all([1, 2, 3].map(() => stripe.sendEvent(server.url, event)));
    const later = [await stripe.sendEvent(server.url, event), await stripe.sendEvent(server.url, event)];
    for (const response of [...parallel, ...later]) expect(await response.json()).toEqual({ received: true });
    const purchases = await server.db.selectFrom("payment_one_time_purchases").selectAll().where("project_id", "=", project.projectId).execute();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({ customer_type: "user", customer_id: customer.customerId, offer_id: "credits_pack", price_id: "once", quantity: 2, stripe_payment_intent_id: intent.id, creation_source: "PURCHASE_PAGE" });
  });

  it("a subscription starts incomplete with the first invoice's client secret, and events in any order end in Stripe's state", async () => {
    const { project, accountId } = await connectedProject();
    const { customer, stripeCustomerId, clientSecret } = await purchase(accountId, project.projectId, "monthly", { quantity: 2 });
    const intent = stripe.paymentIntentOfSecret(clientSecret);
    expect(intent).toMatchObject({ amount: 1800, currency: "usd", customer: stripeCustomerId });
    const subscriptionId: string = intent.subscription;
    const created = stripe.updateSubscription(subscriptionId, {});
    expect(created.status).toBe("incomplete");
    expect(created.metadata).toMatchObject({ offerId: "credits_pack", priceId: "monthly" });

    // Paid: Stripe sends invoice.paid and customer.subscription.updated; the stale "created" event arrives last.
    stripe.succeedPaymentIntent(intent.id);
    const active = stripe.updateSubscription(subscriptionId, {});
    await stripe.sendEvent(server.url, { type: "invoice.paid", account: accountId, object: { id: "in_x", object: "invoice", customer: stripeCustomerId } });
    await stripe.sendEvent(server.url, { type: "customer.subscription.created", account: accountId, object: created });
    let rows = await subscriptionsOf(project.projectId, customer.customerId);
    expect(rows).toHaveLength(1);
    const item = active.items.data[0];
    expect(rows[0]).toMatchObject({
      stripe_subscription_id: subscriptionId, status: "active", offer_id: "credits_pack", price_id: "monthly", quantity: 2, cancel_at_period_end: false, creation_source: "PURCHASE_PAGE",
      current_period_start: new Date(item.current_period_start * 1000), current_period_end: new Date(item.current_period_end * 1000),
    });

    // Cancelled at period end, then ended; the older "updated" event delivered again changes nothing.
    const cancelling = stripe.updateSubscription(subscriptionId, { cancel_at_period_end: true });
    await stripe.sendEvent(server.url, { type: "customer.subscription.updated", account: accountId, object: cancelling });
    expect((await subscriptionsOf(project.projectId, customer.customerId))[0]).toMatchObject({ status: "active", cancel_at_period_end: true });
    const ended = stripe.updateSubscription(subscriptionId, { status: "canceled" });
    await stripe.sendEvent(server.url, { type: "customer.subscription.deleted", account: accountId, object: ended });
    await stripe.sendEvent(server.url, { type: "customer.subscription.updated", account: accountId, object: active });
    rows = await subscriptionsOf(project.projectId, customer.customerId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "canceled", cancel_at_period_end: true });
  });

  it("a subscription whose first invoice needs no payment (a free trial) answers an empty client secret, not none", async () => {
    const { project, accountId } = await connectedProject();
    const trial: OfferConfig = { ...OFFER, freeTrial: [14, "day"] };
    const { customer, stripeCustomerId, clientSecret } = await purchase(accountId, project.projectId, "monthly", { offer: trial });
    expect(clientSecret).toBe("");
    await stripe.sendEvent(server.url, { type: "customer.subscription.created", account: accountId, object: { id: "sub_x", object: "subscription", customer: stripeCustomerId } });
    expect((await subscriptionsOf(project.projectId, customer.customerId))[0]).toMatchObject({ status: "trialing" });
  });

  it("an inline offer too long for one Stripe metadata value travels in parts and is recorded whole", async () => {
    const { project, accountId } = await connectedProject();
    const items = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`item_number_${i}`, { quantity: i + 1, repeat: "never", expires: "never" }]));
    const inline: OfferConfig = { ...OFFER, displayName: "Bundle", includedItems: items as OfferConfig["includedItems"] };
    const customer = { projectId: project.projectId, customerType: "user" as const, customerId: crypto.randomUUID() };
    const stripeCustomerId = await ensureStripeCustomer(server, { projectId: project.projectId, stripeAccountId: accountId, customerType: "user", customerId: customer.customerId });
    const { client_secret } = await startStripePurchase(server, { projectId: project.projectId, stripeAccountId: accountId, stripeCustomerId, customer, offerId: null, offer: inline, priceId: "once", price: { USD: "0.5", serverOnly: false }, quantity: 1 });
    const intent = stripe.paymentIntentOfSecret(client_secret);
    expect(intent.amount).toBe(50);
    expect(intent.metadata.offer).toBeUndefined();
    expect(Object.values(intent.metadata).every((value) => String(value).length <= 500)).toBe(true);
    await stripe.sendEvent(server.url, { type: "payment_intent.succeeded", account: accountId, object: stripe.succeedPaymentIntent(intent.id) });
    const row = await server.db.selectFrom("payment_one_time_purchases").selectAll().where("stripe_payment_intent_id", "=", intent.id).executeTakeFirstOrThrow();
    expect(row.offer_id).toBeNull();
    expect(row.offer).toMatchObject({ displayName: "Bundle", includedItems: items });
  });

  it("money reaches Stripe in minor units computed on the digits", () => {
    expect([toMinorUnits("19.99", "USD"), toMinorUnits("0.1", "EUR"), toMinorUnits("1500", "JPY"), toMinorUnits("0", "GBP")]).toEqual([1999n, 10n, 1500n, 0n]);
    expect(() => toMinorUnits("1.5", "JPY")).toThrow("Not a JPY amount");
  });

  it("events of one project's account never touch another project's payments", async () => {
    const a = await connectedProject();
    const b = await connectedProject();
    const customerId = crypto.randomUUID();
    const bought = await purchase(a.accountId, a.project.projectId, "once", { customerId });
    const intent = stripe.succeedPaymentIntent(stripe.paymentIntentOfSecret(bought.clientSecret).id);
    await stripe.sendEvent(server.url, { type: "payment_intent.succeeded", account: a.accountId, object: intent });
    const count = async (projectId: string) => (await server.db.selectFrom("payment_one_time_purchases").select("id").where("project_id", "=", projectId).execute()).length;
    expect([await count(a.project.projectId), await count(b.project.projectId)]).toEqual([1, 0]);
  });
});

describe("checkout through the purchase routes, with Stripe", () => {
  const CONFIG = {
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.offers.credit-pack": { displayName: "Credit pack", customerType: "user", stackable: true, prices: { single: { USD: "5.00" } }, includedItems: { credits: { quantity: 100, repeat: "never", expires: "never" } } },
    "payments.offers.pro": { displayName: "Pro", customerType: "user", prices: { monthly: { USD: "9.99", interval: [1, "month"] } }, includedItems: { credits: { quantity: 1000, repeat: "never", expires: "when-purchase-expires" } } },
  };
  const as = (project: TestProject, access: "server" | "admin", path: string, method = "GET", body?: unknown) => api(server.url, path, { method, headers: project.headers(access), body });
  const publicCall = (path: string, body: unknown) => api(server.url, `/payments/purchases/${path}`, { method: "POST", body });

  it("a project not set up with Stripe is told to finish onboarding", async () => {
    const project = await createTestProject(server, "Shop");
    expect((await as(project, "admin", "/internal/config/override", "PATCH", { config_override_string: JSON.stringify(CONFIG) })).status).toBe(200);
    const made = await as(project, "server", "/payments/purchases/create-purchase-url", "POST", { customer_type: "user", customer_id: crypto.randomUUID(), offer_id: "credit-pack" });
    expect([made.status, made.text]).toEqual([400, "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding."]);
  });

  it("a user buys credits and a subscription: payment intents at Stripe, recorded by the webhook, the item balance rises", async () => {
    const { project, accountId } = await connectedProject();
    stripe.completeOnboarding(accountId);
    expect((await as(project, "admin", "/internal/config/override", "PATCH", { config_override_string: JSON.stringify(CONFIG) })).status).toBe(200);
    const user = await as(project, "server", "/users", "POST", { primary_email: `buyer-${crypto.randomUUID()}@example.com` });
    const pay = async (offerId: string, priceId: string, quantity: number) => {
      const made = await as(project, "server", "/payments/purchases/create-purchase-url", "POST", { customer_type: "user", customer_id: user.body.id, offer_id: offerId });
      expect(made.status, made.text).toBe(200);
      const fullCode = decodeURIComponent(new URL(made.body.url).pathname.split("/").pop()!);
      const read = await publicCall("validate-code", { full_code: fullCode });
      expect(read.body).toMatchObject({ stripe_account_id: accountId, project_id: project.projectId, test_mode: false });
      const session = await publicCall("purchase-session", { full_code: fullCode, price_id: priceId, quantity });
      expect(session.status, session.text).toBe(200);
      const intent = stripe.succeedPaymentIntent(stripe.paymentIntentOfSecret(session.body.client_secret).id);
      return intent;
    };
    const credits = async () => (await as(project, "server", `/payments/items/user/${user.body.id}/credits`)).body.quantity;

    const once = await pay("credit-pack", "single", 3);
    expect(once).toMatchObject({ amount: 1500, currency: "usd" });
    expect(await credits()).toBe(0);
    await stripe.sendEvent(server.url, { type: "payment_intent.succeeded", account: accountId, object: once });
    expect(await credits()).toBe(300);

    const monthly = await pay("pro", "monthly", 1);
    expect(monthly).toMatchObject({ amount: 999, currency: "usd" });
    await stripe.sendEvent(server.url, { type: "invoice.paid", account: accountId, object: { id: "in_x", object: "invoice", customer: monthly.customer } });
    expect(await credits()).toBe(1300);
    // The subscription's own payment intent is not a one-time purchase.
    await stripe.sendEvent(server.url, { type: "payment_intent.succeeded", account: accountId, object: monthly });
    expect(await credits()).toBe(1300);
  });

  it("a purchase session while Stripe is away answers 503 and leaves the purchase link usable", async () => {
    const { project } = await connectedProject();
    expect((await as(project, "admin", "/internal/config/override", "PATCH", { config_override_string: JSON.stringify(CONFIG) })).status).toBe(200);
    const user = await as(project, "server", "/users", "POST", {});
    const made = await as(project, "server", "/payments/purchases/create-purchase-url", "POST", { customer_type: "user", customer_id: user.body.id, offer_id: "credit-pack" });
    expect(made.status, made.text).toBe(200);
    const fullCode = decodeURIComponent(new URL(made.body.url).pathname.split("/").pop()!);
    const session = () => fetch(`${server.url}/api/v1/payments/purchases/purchase-session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ full_code: fullCode, price_id: "single", quantity: 1 }) });
    await stripe.stop();
    let during: Response;
    try {
      during = await session();
    } finally {
      await stripe.start();
    }
    expect([during.status, await during.text()]).toEqual([503, "Stripe could not be reached while trying to create the payment intent; nothing was changed. Please try again later."]);
    const after = await session();
    expect(after.status).toBe(200);
    expect(stripe.paymentIntentOfSecret((await after.json()).client_secret)).toMatchObject({ amount: 500 });
  });
});

describe("the webhook's signature", () => {
  it("a missing stripe-signature header is a SCHEMA_ERROR, a wrong signature or altered body 400 Invalid stripe-signature header", async () => {
    const url = `${server.url}/api/v1/integrations/stripe/webhooks`;
    const body = JSON.stringify({ id: "evt_1", object: "event", type: "payment_intent.succeeded", data: { object: {} } });
    const missing = await api(server.url, "/integrations/stripe/webhooks", { method: "POST", body });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: "SCHEMA_ERROR", error: "Request validation failed on POST /api/v1/integrations/stripe/webhooks:\n  - headers.stripe-signature must be defined", details: expect.anything() });

    const wrongSecret = await stripe.sendEvent(server.url, { type: "payment_intent.succeeded", object: {} }, { secret: "whsec_someone_else" });
    expect([wrongSecret.status, await wrongSecret.text()]).toEqual([400, "Invalid stripe-signature header"]);
    const garbage = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=abc" }, body });
    expect([garbage.status, await garbage.text()]).toEqual([400, "Invalid stripe-signature header"]);
  });
});

describe("events Stripe cannot say more about", () => {
  it("an event about a customer Stripe no longer has is acknowledged (a redelivery would fare alike) and changes nothing", async () => {
    const { project, accountId } = await connectedProject();
    const sent = await stripe.sendEvent(server.url, { type: "customer.subscription.deleted", account: accountId, object: { id: "sub_gone", object: "subscription", customer: "cus_gone" } });
    expect([sent.status, await sent.json()]).toEqual([200, { received: true }]);
    expect(await server.db.selectFrom("payment_subscriptions").select("id").where("project_id", "=", project.projectId).execute()).toEqual([]);
  });
});

describe("a Stripe outage", () => {
  it("answers 503 saying Stripe could not be reached, writes nothing, and works again once Stripe is back", async () => {
    const connected = await connectedProject();
    const fresh = await createTestProject(server, "Shop");
    await stripe.stop();
    try {
      const setup = await rawAdmin(fresh, "/internal/payments/setup");
      expect(setup.status).toBe(503);
      expect(await setup.text()).toBe("Stripe could not be reached while trying to create the connected account; nothing was changed. Please try again later.");
      expect(await server.db.selectFrom("payment_stripe_accounts").select("project_id").where("project_id", "=", fresh.projectId).execute()).toEqual([]);
      const info = await rawAdmin(connected.project, "/internal/payments/stripe/account-info", "GET");
      expect(info.status).toBe(503);
      await expect(purchase(connected.accountId, connected.project.projectId, "once")).rejects.toThrow(/Stripe could not be reached while trying to create the customer/);
      expect(await server.db.selectFrom("payment_stripe_customers").select("customer_id").where("project_id", "=", connected.project.projectId).execute()).toEqual([]);
    } finally {
      await stripe.start();
    }
    expect((await admin(fresh, "/internal/payments/setup", "POST")).status).toBe(200);
    expect((await admin(connected.project, "/internal/payments/stripe/account-info")).status).toBe(200);
  });

  it("an event whose handling cannot reach Stripe is answered 503, so Stripe delivers it again, and the redelivery records it", async () => {
    const { project, accountId } = await connectedProject();
    const { customer, stripeCustomerId, clientSecret } = await purchase(accountId, project.projectId, "monthly");
    stripe.succeedPaymentIntent(stripe.paymentIntentOfSecret(clientSecret).id);
    const event = { id: `evt_${crypto.randomUUID()}`, type: "invoice.paid", account: accountId, object: { id: "in_x", object: "invoice", customer: stripeCustomerId } };
    // The event is signed before the outage (sendEvent needs no Stripe), then delivered while Stripe is away.
    await stripe.stop();
    let failed: Response;
    try {
      failed = await stripe.sendEvent(server.url, event);
    } finally {
      await stripe.start();
    }
    expect(failed.status).toBe(503);
    expect(await subscriptionsOf(project.projectId, customer.customerId)).toEqual([]);
    expect((await stripe.sendEvent(server.url, event)).status).toBe(200);
    expect((await subscriptionsOf(project.projectId, customer.customerId))[0]).toMatchObject({ status: "active" });
  });
});
