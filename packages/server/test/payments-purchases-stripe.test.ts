import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { PAYMENTS_CONFIG, expectPlain400 } from "./support/payments-purchases-fixture.js";
import { startStripeStandIn, type StripeStandIn } from "./support/stripe-stand-in.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

/**
 * Purchases on a server with a Stripe key (issue 32), through the real `stripe` client against the Stripe
 * stand-in: no purchase link before Stripe is connected, Stripe customers on the codes, purchase sessions
 * that use a code exactly once under 16 parallel calls, a Stripe outage that loses nothing, and plan switches
 * of a running Stripe subscription (subscriptions.update).
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

async function shop(connect: boolean): Promise<{ project: TestProject; userId: string; accountId?: string }> {
  const project = await createTestProject(server, "Shop");
  const configured = await api(server.url, "/internal/config/override", { method: "PATCH", headers: project.headers("admin"), body: { config_override_string: JSON.stringify(PAYMENTS_CONFIG) } });
  expect(configured.status).toBe(200);
  const user = await api(server.url, "/users", { method: "POST", headers: project.headers("server"), body: {} });
  if (!connect) return { project, userId: user.body.id };
  expect((await api(server.url, "/internal/payments/setup", { method: "POST", headers: project.headers("admin"), body: {} })).status).toBe(200);
  const row = await server.db.selectFrom("payment_stripe_accounts").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
  stripe.completeOnboarding(row.stripe_account_id);
  return { project, userId: user.body.id, accountId: row.stripe_account_id };
}

const createUrl = (project: TestProject, body: Record<string, unknown>) =>
  api(server.url, "/payments/purchases/create-purchase-url", { method: "POST", headers: project.headers("server"), body });
const codeOf = (url: string) => decodeURIComponent(new URL(url).pathname.split("/").pop()!);
/** Raw, for answers that are 5xx on purpose (an outage), which api() refuses. */
const purchaseSession = (body: Record<string, unknown>) =>
  fetch(`${server.url}/api/v1/payments/purchases/purchase-session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("purchases with Stripe", () => {
  it("refuse a purchase link until the project has connected Stripe, with the reference's text", async () => {
    const { project, userId } = await shop(false);
    expectPlain400(
      await createUrl(project, { customer_type: "user", customer_id: userId, offer_id: "credit-pack" }),
      "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.",
    );
    // Checked first, as the reference does: even a malformed offer choice gets this answer.
    expectPlain400(await createUrl(project, { customer_type: "user", customer_id: userId }), "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.");
  });

  it("make a Stripe customer for the code, show the connected account, and leave test-mode purchases to admins", async () => {
    const { project, userId, accountId } = await shop(true);
    const made = await createUrl(project, { customer_type: "user", customer_id: userId, offer_id: "credit-pack" });
    expect(made.status, made.text).toBe(200);
    const row = await server.db.selectFrom("payment_purchase_codes").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
    expect(row.stripe_account_id).toBe(accountId);
    expect(stripe.objects.get(row.stripe_customer_id!)).toMatchObject({ account: accountId, metadata: { customerId: userId, customerType: "user" } });

    const code = codeOf(made.body.url);
    const read = await api(server.url, "/payments/purchases/validate-code", { method: "POST", body: { full_code: code } });
    expect(read.body).toMatchObject({ stripe_account_id: accountId, test_mode: false, project_id: project.projectId });
    // The pricing table's offers say the same (no "Test mode" note on a server with a Stripe key).
    expect((await api(server.url, `/payments/offers/user/${userId}`, { headers: project.headers("server") })).body.test_mode).toBe(false);
    expectPlain400(
      await api(server.url, "/payments/purchases/complete-test-mode-purchase", { method: "POST", body: { full_code: code, price_id: "single", quantity: 1 } }),
      "This server has a Stripe key, so purchases go through Stripe: test-mode purchases are made by an admin (POST /internal/payments/test-mode-purchase-session).",
    );
    const admin = await api(server.url, "/internal/payments/test-mode-purchase-session", { method: "POST", headers: project.headers("admin"), body: { full_code: code, price_id: "single", quantity: 2 } });
    expect(admin.status, admin.text).toBe(200);
    expect((await api(server.url, `/payments/items/user/${userId}/credits`, { headers: project.headers("server") })).body.quantity).toBe(200);
  });

  it("use a code once under 16 parallel purchase sessions: one payment intent, 15 refusals", async () => {
    const { project, userId, accountId } = await shop(true);
    const code = codeOf((await createUrl(project, { customer_type: "user", customer_id: userId, offer_id: "credit-pack" })).body.url);
    const before = stripe.requests.filter((r) => r.path === "/v1/payment_intents" && r.method === "POST").length;
    const answers = await Promise.all(Array.from({ length: 16 }, () => purchaseSession({ full_code: code, price_id: "single", quantity: 3 })));
    const bodies = await Promise.all(answers.map((a) => a.json()));
    const won = answers.flatMap((a, i) => (a.status === 200 ? [bodies[i]] : []));
    expect(won).toHaveLength(1);
    expect(won[0].client_secret).toEqual(expect.any(String));
    for (const [i, answer] of answers.entries()) {
      if (answer.status !== 200) expect([answer.status, bodies[i].code]).toEqual([409, "VERIFICATION_CODE_ALREADY_USED"]);
    }
    const intents = stripe.requests.filter((r) => r.path === "/v1/payment_intents" && r.method === "POST");
    expect(intents.length - before).toBe(1);
    // 5.00 USD × 3, in cents, on the project's connected account.
    expect(stripe.paymentIntentOfSecret(won[0].client_secret)).toMatchObject({ account: accountId, amount: 1500, currency: "usd" });
  });

  it("refuse as in test mode (price, quantity), and give the code back when Stripe cannot be reached", async () => {
    const { project, userId } = await shop(true);
    const code = codeOf((await createUrl(project, { customer_type: "user", customer_id: userId, offer_id: "pro" })).body.url);
    const unknownPrice = await purchaseSession({ full_code: code, price_id: "nope", quantity: 1 });
    expect([unknownPrice.status, await unknownPrice.text()]).toEqual([400, "Price not found on offer associated with this purchase code"]);
    const tooMany = await purchaseSession({ full_code: code, price_id: "monthly", quantity: 2 });
    expect([tooMany.status, await tooMany.text()]).toEqual([400, "This offer is not stackable; quantity must be 1"]);

    await stripe.stop();
    let outage: Response;
    try {
      outage = await purchaseSession({ full_code: code, price_id: "monthly", quantity: 1 });
    } finally {
      await stripe.start();
    }
    expect(outage.status).toBe(503);
    expect(await outage.text()).toMatch(/^Stripe could not be reached/);
    const retried = await purchaseSession({ full_code: code, price_id: "monthly", quantity: 1 });
    expect(retried.status, await retried.clone().text()).toBe(200);
    expect((await retried.json()).client_secret).toEqual(expect.any(String));
  });

  it("switch the running Stripe subscription in place for another plan of its group (Stripe's default proration), after ending a test-mode plan; refuse a one-time price or an admin's test-mode plan beside it", async () => {
    const { project, userId, accountId } = await shop(true);
    const max = { "payments.offers.max": { displayName: "Max", customerType: "user", groupId: "plans", prices: { yearly: { USD: "100", interval: [1, "year"] } } } };
    expect((await api(server.url, "/internal/config/override", { method: "PATCH", headers: project.headers("admin"), body: { config_override_string: JSON.stringify(max) } })).status).toBe(200);
    const newCode = async (offerId: string) => codeOf((await createUrl(project, { customer_type: "user", customer_id: userId, offer_id: offerId })).body.url);
    const session = async (offerId: string, priceId: string) => {
      const answer = await purchaseSession({ full_code: await newCode(offerId), price_id: priceId, quantity: 1 });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { client_secret: string }).client_secret;
    };
    const plans = () => server.db.selectFrom("payment_subscriptions").select(["offer_id", "price_id", "status", "stripe_subscription_id"]).where("project_id", "=", project.projectId).orderBy("created_at").execute();
    const credits = async () => (await api(server.url, `/payments/items/user/${userId}/credits`, { headers: project.headers("server") })).body.quantity;

    // A test-mode plan (an admin's), then Pro through Stripe: the test-mode plan ends once the subscription starts.
    const admin = await api(server.url, "/internal/payments/test-mode-purchase-session", { method: "POST", headers: project.headers("admin"), body: { full_code: await newCode("basic"), price_id: "monthly", quantity: 1 } });
    expect(admin.status, admin.text).toBe(200);
    const first = stripe.paymentIntentOfSecret(await session("pro", "monthly"));
    const subscriptionId: string = first.subscription;
    stripe.succeedPaymentIntent(first.id);
    await stripe.sendEvent(server.url, { type: "invoice.paid", account: accountId, object: { id: "in_1", object: "invoice", customer: first.customer } });
    expect(await plans()).toEqual([
      { offer_id: "basic", price_id: "monthly", status: "canceled", stripe_subscription_id: null },
      { offer_id: "pro", price_id: "monthly", status: "active", stripe_subscription_id: subscriptionId },
    ]);
    expect(await credits()).toBe(1000);

    // Basic, same interval: the subscription's item is repriced at Stripe, nothing is due now (proration waits for
    // the next invoice, Stripe's default), and the page goes straight to its return page ("").
    const itemId: string = stripe.objects.get(subscriptionId)!.items.data[0].id;
    expect(await session("basic", "monthly")).toBe("");
    const update = stripe.requests.findLast((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}`)!;
    expect(update).toMatchObject({ account: accountId, params: { items: [{ id: itemId, quantity: "1", price_data: { currency: "usd", unit_amount: "400", recurring: { interval: "month", interval_count: "1" } } }] } });
    expect(update.params.metadata).toMatchObject({ offerId: "basic", priceId: "monthly", customerId: userId });
    expect(update.params.proration_behavior).toBeUndefined();
    expect([...stripe.objects.values()].filter((o) => o.object === "subscription" && o.account === accountId)).toHaveLength(1);
    // Recorded from Stripe's event, as every subscription change is.
    await stripe.sendEvent(server.url, { type: "customer.subscription.updated", account: accountId, object: stripe.updateSubscription(subscriptionId, {}) });
    expect((await plans())[1]).toEqual({ offer_id: "basic", price_id: "monthly", status: "active", stripe_subscription_id: subscriptionId });
    expect(await credits()).toBe(0); // Pro's credits lasted while Pro did

    // Max, yearly: the billing cycle starts again with an invoice now, the year's price less the month's unused
    // part, paid on the purchase page like a first invoice.
    const yearly = stripe.paymentIntentOfSecret(await session("max", "yearly"));
    expect(yearly.subscription).toBe(subscriptionId);
    expect(yearly.amount).toBeGreaterThanOrEqual(10_000 - 400);
    expect(yearly.amount).toBeLessThan(10_000);
    stripe.succeedPaymentIntent(yearly.id);
    await stripe.sendEvent(server.url, { type: "invoice.paid", account: accountId, object: { id: "in_2", object: "invoice", customer: yearly.customer } });
    const [row] = await server.db.selectFrom("payment_subscriptions").selectAll().where("stripe_subscription_id", "=", subscriptionId).execute();
    expect(row).toMatchObject({ offer_id: "max", price_id: "yearly", status: "active" });
    expect(row!.current_period_end!.getTime() - row!.current_period_start.getTime()).toBe(31_536_000_000);

    // Beside a plan Stripe bills: a one-time price of the group (the reference's refusal), or an admin's
    // test-mode plan, is refused; the code is kept.
    const lifetime = await newCode("pro");
    const refused = await purchaseSession({ full_code: lifetime, price_id: "lifetime", quantity: 1 });
    expect([refused.status, await refused.text()]).toEqual([400, "Customer already has a subscription in this group; one-time purchases are not allowed"]);
    expect((await api(server.url, "/payments/purchases/validate-code", { method: "POST", body: { full_code: lifetime } })).status).toBe(200);
    expectPlain400(
      await api(server.url, "/internal/payments/test-mode-purchase-session", { method: "POST", headers: project.headers("admin"), body: { full_code: await newCode("basic"), price_id: "monthly", quantity: 1 } }),
      "Customer already has a Stripe subscription in this group; a test-mode purchase cannot replace it. Cancel the current subscription first.",
    );
  });
});
