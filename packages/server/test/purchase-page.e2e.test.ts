import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { CHROMIUM_ARGS } from "../../../demo/test/support/demo-e2e.js";
import { api } from "./support/api.js";
import { PAYMENTS_CONFIG } from "./support/payments-purchases-fixture.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

/**
 * The hosted purchase page in Chromium at a phone's size (issue 32), on a server without a Stripe key (test
 * mode): the offer and its prices, quantity, the total, "Complete test purchase", the return page and its
 * link back to the app; refusals explained on the page.
 */

let server: TestServer;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    reachablePublicUrl().then((vars) => startTestServer(vars)),
    chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS }),
  ]);
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.context().close()));
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

const APP = "https://shop.example.com";

async function project(): Promise<TestProject> {
  const created = await createTestProject(server, "Acme Shop");
  const configured = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: created.headers("admin"),
    body: { config_override_string: JSON.stringify({ ...PAYMENTS_CONFIG, "domains.trustedDomains.shop": { baseUrl: APP, handlerPath: "/handler" } }) },
  });
  expect(configured.status).toBe(200);
  return created;
}

async function purchaseUrl(p: TestProject, offerId: string, options: { returnUrl?: string; userId?: string } = {}): Promise<{ url: string; userId: string }> {
  const userId =
    options.userId ??
    (await api(server.url, "/users", { method: "POST", headers: p.headers("server"), body: { primary_email: `p-${crypto.randomUUID()}@example.com` } })).body.id;
  const made = await api(server.url, "/payments/purchases/create-purchase-url", {
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
