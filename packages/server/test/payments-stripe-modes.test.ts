import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../src/env.js";
import { api } from "./support/api.js";
import { startStripeStandIn, type StripeStandIn } from "./support/stripe-stand-in.js";
import { createTestProject, PRODUCTION, startTestServer, type TestServer } from "./support/test-server.js";

/**
 * How the server's Stripe settings change what payments do (issue 32): no key (test mode: the Stripe routes say
 * so, never a 500), dev mode's mock key (the reference's `stack_stripe_mock_data` hook) and any other mode (no
 * hook), and the start-up checks of the settings.
 */

const MOCK_KEY = "sk_test_mockstripekey";
let stripe: StripeStandIn;
let devMock: TestServer;
let production: TestServer;
let noKey: TestServer;

beforeAll(async () => {
  stripe = await startStripeStandIn({ secretKey: MOCK_KEY });
  const settings = { LATCHKEY_STRIPE_SECRET_KEY: MOCK_KEY, LATCHKEY_STRIPE_API_URL: stripe.url, LATCHKEY_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret };
  [devMock, production, noKey] = await Promise.all([
    startTestServer({ ...settings, LATCHKEY_DEV_MODE: "true" }),
    startTestServer({ ...settings, ...PRODUCTION }),
    startTestServer({ LATCHKEY_DEV_MODE: "true" }),
  ]);
}, 90_000);
afterAll(async () => {
  await Promise.all([devMock?.close(), production?.close(), noKey?.close()]);
  await stripe?.stop();
});

describe("Stripe settings at start", () => {
  it("dev mode's mock key means a Stripe mock on localhost:8123 unless LATCHKEY_STRIPE_API_URL says otherwise", () => {
    expect(readEnv({ LATCHKEY_STRIPE_SECRET_KEY: MOCK_KEY }).stripe).toEqual({ secretKey: MOCK_KEY, apiUrl: "http://localhost:8123", webhookSecret: undefined });
    expect(readEnv({ LATCHKEY_STRIPE_SECRET_KEY: MOCK_KEY, LATCHKEY_STRIPE_API_URL: "http://127.0.0.1:9999" }).stripe?.apiUrl).toBe("http://127.0.0.1:9999");
    expect(readEnv({ LATCHKEY_STRIPE_SECRET_KEY: "sk_test_real" }).stripe?.apiUrl).toBeUndefined();
    expect(readEnv({}).stripe).toBeUndefined();
  });

  it("outside dev mode the mock key needs an API URL, and a key needs the webhook secret", () => {
    expect(() => readEnv({ ...PRODUCTION, LATCHKEY_STRIPE_SECRET_KEY: MOCK_KEY, LATCHKEY_STRIPE_WEBHOOK_SECRET: "whsec_x" })).toThrow(
      "Invalid Latchkey configuration: LATCHKEY_STRIPE_SECRET_KEY: the mock key sk_test_mockstripekey talks to a local Stripe mock, in dev mode only (or set LATCHKEY_STRIPE_API_URL)",
    );
    expect(() => readEnv({ ...PRODUCTION, LATCHKEY_STRIPE_SECRET_KEY: "sk_live_x" })).toThrow(
      "Invalid Latchkey configuration: LATCHKEY_STRIPE_WEBHOOK_SECRET: must be set with LATCHKEY_STRIPE_SECRET_KEY outside dev mode (Stripe's events record the purchases)",
    );
    expect(readEnv({ ...PRODUCTION, LATCHKEY_STRIPE_SECRET_KEY: "sk_live_x", LATCHKEY_STRIPE_WEBHOOK_SECRET: "whsec_x" }).stripe).toEqual({ secretKey: "sk_live_x", apiUrl: undefined, webhookSecret: "whsec_x" });
  });
});

describe("without a Stripe key (test mode)", () => {
  it("setup and account sessions answer 400 saying payments run in test mode; account info is not found; the webhook 503", async () => {
    const project = await createTestProject(noKey, "Shop");
    const admin = (path: string, method: string) => api(noKey.url, path, { method, headers: project.headers("admin"), ...(method === "POST" && { body: {} }) });
    const text =
      "Stripe is not configured on this server (LATCHKEY_STRIPE_SECRET_KEY is not set), so every project's payments run in test mode. Set the key to connect a Stripe account.";
    for (const path of ["/internal/payments/setup", "/internal/payments/stripe-widgets/account-session"]) {
      const answer = await admin(path, "POST");
      expect([answer.status, answer.text]).toEqual([400, text]);
    }
    const info = await admin("/internal/payments/stripe/account-info", "GET");
    expect([info.status, info.body.code]).toEqual([404, "STRIPE_ACCOUNT_INFO_NOT_FOUND"]);
    const webhook = await stripe.sendEvent(noKey.url, { type: "invoice.paid", object: {} });
    expect([webhook.status, await webhook.text()]).toEqual([503, "Stripe webhooks are not configured on this server: set LATCHKEY_STRIPE_SECRET_KEY and LATCHKEY_STRIPE_WEBHOOK_SECRET."]);
  });
});

describe("stack_stripe_mock_data", () => {
  /**
   * An event about an account and customer no Latchkey project made: only the mock data (in dev mode with the
   * mock key) says whose they are and what subscriptions Stripe has.
   */
  async function sendMockedEvent(server: TestServer) {
    const project = await createTestProject(server, "Shop");
    const account = `acct_${crypto.randomUUID().replaceAll("-", "")}`;
    stripe.accounts.set(account, { id: account, object: "account", metadata: {}, charges_enabled: true, details_submitted: true, payouts_enabled: true });
    const customer = `cus_${crypto.randomUUID().replaceAll("-", "")}`;
    stripe.objects.set(customer, { id: customer, object: "customer", metadata: {}, account });
    const start = Math.floor(Date.now() / 1000);
    const mock = {
      "accounts.retrieve": { metadata: { tenancyId: project.projectId } },
      "customers.retrieve": { metadata: { customerType: "custom", customerId: "org-1" } },
      "subscriptions.list": {
        data: [{
          id: "sub_mocked", object: "subscription", customer, status: "active", cancel_at_period_end: false, created: start,
          metadata: { offerId: "pro", priceId: "monthly", offer: JSON.stringify({ displayName: "Pro", customerType: "custom" }) },
          items: { data: [{ quantity: 2, current_period_start: start, current_period_end: start + 2_592_000 }] },
        }],
      },
    };
    const sent = await stripe.sendEvent(server.url, { type: "customer.subscription.updated", account, object: { id: "sub_mocked", object: "subscription", customer, stack_stripe_mock_data: mock } });
    expect(sent.status).toBe(200);
    return server.db.selectFrom("payment_subscriptions").selectAll().where("project_id", "=", project.projectId).execute();
  }

  it("is merged into Stripe's answers while the event is handled, in dev mode with the mock key", async () => {
    const rows = await sendMockedEvent(devMock);
    expect(rows).toEqual([expect.objectContaining({ customer_type: "custom", customer_id: "org-1", stripe_subscription_id: "sub_mocked", offer_id: "pro", price_id: "monthly", quantity: 2, status: "active" })]);
  });

  it("is ignored outside dev mode, even with the mock key", async () => {
    expect(await sendMockedEvent(production)).toEqual([]);
  });
});
