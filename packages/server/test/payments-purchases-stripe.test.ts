import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { PAYMENTS_CONFIG, expectPlain400 } from "./support/payments-purchases-fixture.js";
import { startStripeStandIn, type StripeStandIn } from "./support/stripe-stand-in.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

/**
 * Purchases on a server with a Stripe key (issue 32), through the real `stripe` client against the Stripe
 * stand-in: no purchase link before Stripe is connected, Stripe customers on the codes, purchase sessions
 * that use a code exactly once under 16 parallel calls, and a Stripe outage that loses nothing.
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

  it("replace a test-mode plan of the group once the Stripe subscription starts, and refuse to stack a second plan on one Stripe bills", async () => {
    const { project, userId } = await shop(true);
    const newCode = async (offerId: string) => codeOf((await createUrl(project, { customer_type: "user", customer_id: userId, offer_id: offerId })).body.url);
    const admin = await api(server.url, "/internal/payments/test-mode-purchase-session", { method: "POST", headers: project.headers("admin"), body: { full_code: await newCode("basic"), price_id: "monthly", quantity: 1 } });
    expect(admin.status, admin.text).toBe(200);
    const started = await purchaseSession({ full_code: await newCode("pro"), price_id: "monthly", quantity: 1 });
    expect(started.status).toBe(200);
    const plans = () => server.db.selectFrom("payment_subscriptions").select(["offer_id", "status"]).where("project_id", "=", project.projectId).orderBy("created_at").execute();
    expect(await plans()).toEqual([{ offer_id: "basic", status: "canceled" }]);

    // A plan Stripe bills (as the webhook records it) is not switched from here: refused, the code kept.
    await server.db
      .insertInto("payment_subscriptions")
      .values({ project_id: project.projectId, customer_type: "user", customer_id: userId, offer_id: "pro", offer: "{}", price_id: "monthly", quantity: 1, stripe_subscription_id: "sub_running", status: "active", current_period_start: new Date(), current_period_end: new Date(Date.now() + 86_400_000), creation_source: "PURCHASE_PAGE" })
      .execute();
    const basic = await newCode("basic");
    const refused = await purchaseSession({ full_code: basic, price_id: "monthly", quantity: 1 });
    const text = "Customer already has a Stripe subscription in this group; switching it to another offer through a purchase link is not supported yet. Cancel the current subscription first.";
    expect([refused.status, await refused.text()]).toEqual([400, text]);
    const byAdmin = await api(server.url, "/internal/payments/test-mode-purchase-session", { method: "POST", headers: project.headers("admin"), body: { full_code: basic, price_id: "monthly", quantity: 1 } });
    expectPlain400(byAdmin, text);
    expect((await api(server.url, "/payments/purchases/validate-code", { method: "POST", body: { full_code: basic } })).status).toBe(200);
  });
});
