import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { PAYMENTS_CONFIG } from "./support/payments-purchases-fixture.js";
import { startStripeStandIn, type StripeStandIn } from "./support/stripe-stand-in.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { releaseChromium, sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/**
 * The hosted purchase page in Chromium at a phone's size (issue 32), on a server without a Stripe key (test
 * mode): the offer and its prices, quantity, the total, "Complete test purchase", the return page and its
 * link back to the app; refusals explained on the page. And on a server with Stripe: the page asks for a
 * purchase session, loads Stripe.js through @stripe/stripe-js with the connected account, mounts the Payment
 * Element and confirms back to the return page. Stripe.js itself cannot be fetched here: a stand-in script is
 * served for js.stripe.com that records what the page asks of it.
 */

let server: TestServer;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    reachablePublicUrl().then((vars) => startTestServer(vars)),
    sharedChromium(),
  ]);
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.context().close()));
});
afterAll(async () => {
  await Promise.all([releaseChromium(browser), server?.close()]);
});

const APP = "https://shop.example.com";

async function project(on: TestServer = server): Promise<TestProject> {
  const created = await createTestProject(on, "Acme Shop");
  const configured = await api(on.url, "/internal/config/override", {
    method: "PATCH",
    headers: created.headers("admin"),
    body: { config_override_string: JSON.stringify({ ...PAYMENTS_CONFIG, "domains.trustedDomains.shop": { baseUrl: APP, handlerPath: "/handler" } }) },
  });
  expect(configured.status).toBe(200);
  return created;
}

async function purchaseUrl(p: TestProject, offerId: string, options: { returnUrl?: string; userId?: string; on?: TestServer } = {}): Promise<{ url: string; userId: string }> {
  const on = options.on ?? server;
  const userId =
    options.userId ?? (await api(on.url, "/users", { method: "POST", headers: p.headers("server"), body: { primary_email: `p-${crypto.randomUUID()}@example.com` } })).body.id;
  const made = await api(on.url, "/payments/purchases/create-purchase-url", {
    method: "POST",
    headers: p.headers("server"),
    body: { customer_type: "user", customer_id: userId, offer_id: offerId, ...(options.returnUrl ? { return_url: options.returnUrl } : {}) },
  });
  expect(made.status, made.text).toBe(200);
  return { url: made.body.url, userId };
}

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-US" });
  const page = await context.newPage();
  pages.push(page);
  return page;
}

describe("the purchase page in test mode", () => {
  it("buys 3 of a stackable offer on a phone, then the return page links back to the app", async () => {
    const p = await project();
    const { url, userId } = await purchaseUrl(p, "credit-pack", { returnUrl: `${APP}/billing` });
    const page = await phonePage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);

    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Credit pack");
    expect(await page.getByRole("note").first().textContent()).toContain("Test mode.");
    const single = page.getByRole("radio", { name: "$5.00 one-time" });
    expect(await single.isChecked()).toBe(true);
    // The staff price is server-only: not offered.
    expect(await page.getByRole("radio").count()).toBe(1);

    const quantity = page.getByRole("spinbutton", { name: "Quantity" });
    await quantity.fill("3");
    await expect.poll(() => page.locator("#total").textContent()).toBe("Total: $15.00");
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Keyboard only: from the quantity field, Tab reaches the button, Enter submits.
    await quantity.focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Complete test purchase");
    await page.keyboard.press("Enter");

    await page.waitForURL((u) => u.pathname === "/purchase/return");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Purchase complete");
    const back = page.getByRole("link", { name: "Back to Acme Shop" });
    expect(await back.getAttribute("href")).toBe(`${APP}/billing`);

    const item = await api(server.url, `/payments/items/user/${userId}/credits`, { headers: p.headers("server") });
    expect(item.body.quantity).toBe(300);
    expect(errors).toEqual([]);
  });

  it("explains what stands in the way: a used link, an offer already bought, a running plan of the group", async () => {
    const p = await project();
    const { url, userId } = await purchaseUrl(p, "pro");
    const code = decodeURIComponent(new URL(url).pathname.split("/").pop()!);
    const page = await phonePage();
    await page.goto(url);
    expect(await page.getByRole("radio", { name: /\$9\.99.*per month/ }).isChecked()).toBe(true);
    expect(await page.getByRole("radio", { name: /\$199\.00.*one-time/ }).isChecked()).toBe(false);

    // Someone else uses the code first: the page's purchase is refused and says why.
    expect((await api(server.url, "/payments/purchases/complete-test-mode-purchase", { method: "POST", body: { full_code: code, price_id: "monthly", quantity: 1 } })).status).toBe(200);
    await page.getByRole("button", { name: "Complete test purchase" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("The verification link has already been used.");

    const reopened = await page.goto(url);
    expect(reopened?.status()).toBe(409);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("This purchase link cannot be used");

    // A new link to the plan the user now holds: the page says so and offers no button.
    await page.goto((await purchaseUrl(p, "pro", { userId })).url);
    expect(await page.getByRole("note").filter({ hasText: "You already own Pro" }).count()).toBe(1);
    expect(await page.getByRole("button").count()).toBe(0);
    // Another plan of the group: the running subscription is named; its one-time price cannot be chosen.
    await page.goto((await purchaseUrl(p, "basic", { userId })).url);
    expect(await page.getByRole("note").filter({ hasText: "You subscribe to Pro now." }).count()).toBe(1);
  });
});

/** What the page gets instead of Stripe.js: Stripe's entry point, recording the page's calls in `window.stripeCalls`. */
const STRIPE_JS_STAND_IN = `
window.stripeCalls = [];
window.Stripe = function (key, options) {
  window.stripeCalls.push(["Stripe", key, options]);
  return {
    _registerWrapper() {},
    elements(options) {
      window.stripeCalls.push(["elements", options]);
      return { create(type) { window.stripeCalls.push(["create", type]); return { mount(selector) { document.querySelector(selector).textContent = "Card number"; } }; } };
    },
    async confirmPayment(args) {
      window.stripeCalls.push(["confirmPayment", args.confirmParams]);
      location.assign(args.confirmParams.return_url + "&redirect_status=succeeded");
      return {};
    },
  };
};
window.Stripe.version = "endive";
`;

describe("the purchase page with Stripe", () => {
  let stripe: StripeStandIn;
  let stripeServer: TestServer;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    stripeServer = await startTestServer({
      ...(await reachablePublicUrl()),
      LATCHKEY_STRIPE_SECRET_KEY: stripe.secretKey,
      LATCHKEY_STRIPE_API_URL: stripe.url,
      LATCHKEY_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      LATCHKEY_STRIPE_PUBLISHABLE_KEY: "pk_test_latchkey",
    });
  });
  afterAll(async () => {
    await stripeServer?.close();
    await stripe?.stop();
  });

  it("starts a purchase session, loads Stripe.js with the connected account, mounts the Payment Element and confirms to the return page", async () => {
    const p = await project(stripeServer);
    expect((await api(stripeServer.url, "/internal/payments/setup", { method: "POST", headers: p.headers("admin"), body: {} })).status).toBe(200);
    const account = await stripeServer.db.selectFrom("payment_stripe_accounts").selectAll().where("project_id", "=", p.projectId).executeTakeFirstOrThrow();
    stripe.completeOnboarding(account.stripe_account_id);
    const { url } = await purchaseUrl(p, "credit-pack", { on: stripeServer, returnUrl: `${APP}/billing` });

    const page = await phonePage();
    const stripeJs: string[] = [];
    await page.route("https://js.stripe.com/**", (route) => {
      stripeJs.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/javascript", body: STRIPE_JS_STAND_IN });
    });
    await page.goto(url);
    expect(await page.getByRole("note").count()).toBe(0);
    await page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    const [session, loader] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/payments/purchases/purchase-session")),
      page.waitForResponse((r) => r.url().endsWith("/purchase/assets/stripe-js.mjs")),
      page.getByRole("button", { name: "Continue to payment" }).click(),
    ]);
    expect(session.status()).toBe(200);
    expect(loader.status()).toBe(200);
    const { client_secret: clientSecret } = await session.json();
    await expect.poll(() => page.locator("#payment-element").textContent()).toBe("Card number");
    expect(stripeJs).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { stripeCalls: unknown[] }).stripeCalls)).toEqual([
      ["Stripe", "pk_test_latchkey", { stripeAccount: account.stripe_account_id }],
      ["elements", { clientSecret }],
      ["create", "payment"],
    ]);
    // The choice is final once the code is used: the price and quantity can no longer change.
    expect(await page.getByRole("spinbutton", { name: "Quantity" }).isDisabled()).toBe(true);
    expect(stripe.paymentIntentOfSecret(clientSecret)).toMatchObject({ account: account.stripe_account_id, amount: 1000, currency: "usd" });

    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL((u) => u.pathname === "/purchase/return");
    expect(new URL(page.url()).searchParams.get("redirect_status")).toBe("succeeded");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Purchase complete");
    expect(await page.getByRole("link", { name: "Back to Acme Shop" }).getAttribute("href")).toBe(`${APP}/billing`);
  });
});
