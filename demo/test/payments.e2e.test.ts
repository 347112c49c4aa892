import { describe, expect, it } from "vitest";
import { createAdminApp } from "../../packages/core/src/apps/admin-app.js";
import { DEMO_PAYMENTS_CONFIG_OVERRIDE } from "../../packages/server/src/services/seed.js";
import { createServerApp } from "../../packages/core/src/apps/server-app.js";
import { at, createUserWithPassword, demoProject, errorsOf, newEmail, openDemo, server, useDemoForFile } from "./support/demo-e2e.js";

/**
 * Buying the "pro" plan from the script-tag demo, as a person does in Chromium: sign up, see the free plan and its
 * credits, press "Choose Pro", complete the purchase on the server's hosted purchase page (test mode: the test
 * server has no Stripe key), come back through the return page's link, and see the new balance and plan. The
 * project's admin then finds the purchase among the transactions.
 */
useDemoForFile();

describe("demo payments", () => {
  it("buys pro through the hosted page in test mode; the balance rises and the admin sees the transaction", async () => {
    // The plans the dev server seeds into its demo project.
    const project = await demoProject(DEMO_PAYMENTS_CONFIG_OVERRIDE);
    const email = newEmail("buyer");
    const page = await openDemo(project, "/demo/handler/sign-up");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByLabel("Repeat password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(at("/demo/"));

    // The free plan is everyone's at first, with its 10 credits.
    const plans = page.locator("auth-pricing-table");
    await page.getByRole("heading", { name: "Your plan" }).waitFor();
    await plans.locator("[part=plan][aria-current=true]", { hasText: "Free" }).waitFor();
    await page.locator("auth-item-balance [part=quantity]", { hasText: /^10$/ }).waitFor();
    expect(await plans.locator("[part=plan]", { hasText: "Pro" }).textContent()).toContain("$9.99");

    await plans.getByRole("button", { name: "Choose Pro" }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/purchase/${project.projectId}_`));
    await page.getByRole("heading", { name: "Pro" }).waitFor();
    await page.getByText("Test mode.").waitFor();
    await page.getByRole("button", { name: "Complete test purchase" }).click();
    await page.getByRole("heading", { name: "Purchase complete" }).waitFor();
    await page.getByRole("link", { name: "Back to Demo e2e" }).click();

    // Back in the app: pro is the current plan and its 1000 credits are there.
    await page.waitForURL(at("/demo/"));
    await plans.locator("[part=plan][aria-current=true]", { hasText: "Pro" }).waitFor();
    await page.locator("auth-item-balance [part=quantity]", { hasText: /^1,000$/ }).waitFor();
    expect(errorsOf(page)).toEqual([]);

    const admin = createAdminApp({ projectId: project.projectId, superSecretAdminKey: project.superSecretAdminKey, baseUrl: server.url, tokenStore: "memory" });
    const { transactions } = await admin.listTransactions({ type: "subscription" });
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({ customerType: "user", offerDisplayName: "Pro", testMode: true, quantity: 1, price: { amounts: { USD: "9.99" }, interval: [1, "month"] } });
  });

  it("shows the plans and credits in the React demo, and a balance changed elsewhere once the person is back on the tab", async () => {
    const project = await demoProject(DEMO_PAYMENTS_CONFIG_OVERRIDE);
    const email = newEmail("reader");
    const userId = await createUserWithPassword(project, email, "react to this");
    const page = await openDemo(project, "/demo/react/");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("react to this");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.getByRole("heading", { name: "Your plan" }).waitFor();
    await page.locator("auth-pricing-table [part=plan][aria-current=true]", { hasText: "Free" }).waitFor();
    await page.locator("auth-item-balance [part=quantity]", { hasText: /^10$/ }).waitFor();

    // Credits granted by the app's backend while the person is in another tab: coming back shows them, no reload.
    const backend = createServerApp({ projectId: project.projectId, secretServerKey: project.secretServerKey, baseUrl: server.url, tokenStore: "memory" });
    await (await backend.getItem({ itemId: "credits", userId })).increaseQuantity(25, { description: "referral bonus" });
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await page.locator("auth-item-balance [part=quantity]", { hasText: /^35$/ }).waitFor();
    expect(errorsOf(page)).toEqual([]);
  });
});
