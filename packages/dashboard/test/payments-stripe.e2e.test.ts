import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, type StripeStandIn } from "../../server/test/support/stripe-stand-in.js";
import { expectNoAxeViolations, openSection, ownerAdmin, ownerWithProject, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The Payments page's Setup tab on a server with a Stripe key (issue 32): the server's real `stripe` client
 * talks to the tests' Stripe stand-in. Connecting opens Stripe's onboarding link, which comes back to the
 * page; the account's state follows what Stripe reports.
 */
let stripe: StripeStandIn;
// Filled before the harness starts its server (hooks run in the order they are declared).
const env: Record<string, string> = {};
beforeAll(async () => {
  stripe = await startStripeStandIn();
  Object.assign(env, { LATCHKEY_STRIPE_SECRET_KEY: stripe.secretKey, LATCHKEY_STRIPE_API_URL: stripe.url, LATCHKEY_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret });
});
const harness = useDashboardHarness(env);
afterAll(async () => {
  await stripe?.stop();
});

describe("the Payments page with Stripe", () => {
  it("connects the project's Stripe account through Stripe's onboarding and shows its state", async () => {
    const { page, email, projectId } = await ownerWithProject(harness);
    const admin = await ownerAdmin(harness.server, email, projectId);
    await openSection(page, "Payments");
    await page.getByText("Not set up.", { exact: true }).waitFor();
    expect(await page.getByText("Test mode.", { exact: true }).count()).toBe(0);
    await expectNoAxeViolations(page);

    // The button makes the connected account and opens Stripe's onboarding, which returns to this page.
    await page.getByRole("button", { name: "Connect Stripe" }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/setup/acct_`));
    const link = new URL(page.url());
    const accountId = link.pathname.split("/").pop()!;
    // The server's public URL (Stripe's way back) may name the host the page was opened at another way (127.0.0.1, localhost).
    const returnPath = `/dashboard/projects/${projectId}/payments`;
    expect(new URL(link.searchParams.get("return_url")!).pathname).toBe(returnPath);
    expect(await admin.getStripeAccountInfo()).toMatchObject({ accountId, chargesEnabled: false, detailsSubmitted: false });

    // Back before finishing: onboarding is incomplete, and the button continues it.
    await page.goto(`${harness.server.url}${returnPath}`);
    await page.getByText("Onboarding incomplete.", { exact: true }).waitFor();
    await page.getByText(accountId, { exact: true }).waitFor();
    await page.getByRole("button", { name: "Continue onboarding" }).waitFor();

    stripe.completeOnboarding(accountId);
    await page.reload();
    await page.getByText("Charges enabled.", { exact: true }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Continue onboarding" }).count()).toBe(0);
    // Setup made one account, however the owner came and went.
    expect(stripe.accounts.size).toBe(1);
    await expectNoAxeViolations(page);
  });
});
