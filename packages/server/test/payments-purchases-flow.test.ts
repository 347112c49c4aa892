import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import type { TestProject } from "./support/test-server.js";
import { as, createTeam, expectKnownError, server, useServerForFile } from "./support/users-fixture.js";
import { buyer, completeTestMode, expectPlain400, paymentsProject, publicCall, purchaseCode } from "./support/payments-purchases-fixture.js";

// No Stripe key: purchases complete in test mode, through the page's route or the admin's (issue 32).
useServerForFile();

const credits = async (project: TestProject, userId: string): Promise<number> => {
  const read = await as(project, "server", `/payments/items/user/${userId}/credits`);
  expect(read.status, read.text).toBe(200);
  return read.body.quantity;
};

const transactions = async (project: TestProject) => {
  const listed = await as(project, "admin", "/internal/payments/transactions");
  expect(listed.status, listed.text).toBe(200);
  return listed.body.transactions as Record<string, unknown>[];
};

const adminTestMode = (project: TestProject, fullCode: string, priceId: string, quantity = 1) =>
  as(project, "admin", "/internal/payments/test-mode-purchase-session", { method: "POST", body: { full_code: fullCode, price_id: priceId, quantity } });

describe("test-mode purchases", () => {
  it("raise the item's quantity and are listed as test-mode transactions", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    expect(await credits(project, user.id)).toBe(0);
    const done = await completeTestMode(await purchaseCode(project, user.id, "credit-pack"), "single", 3);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({});
    expect(await credits(project, user.id)).toBe(300);

    expect(await transactions(project)).toEqual([
      expect.objectContaining({ type: "one_time", customer_type: "user", customer_id: user.id, quantity: 3, test_mode: true, offer_display_name: "Credit pack", price: { USD: "5.00", EUR: "4.5" } }),
    ]);
    const row = await server.db.selectFrom("payment_one_time_purchases").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ offer_id: "credit-pack", price_id: "single", quantity: 3, creation_source: "TEST_MODE", stripe_payment_intent_id: null });
  });

  it("refuse as the reference does: unknown or server-only price, quantity of a non-stackable offer, bought already, add-on without base, one-time in a subscribed group", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const pack = await purchaseCode(project, user.id, "credit-pack");
    expectPlain400(await completeTestMode(pack, "nope"), "Price not found on offer associated with this purchase code");
    // The page is never offered a server-only price, so it cannot buy with one.
    expectPlain400(await completeTestMode(pack, "staff"), "Price not found on offer associated with this purchase code");
    expectPlain400(await completeTestMode(await purchaseCode(project, user.id, "pro"), "monthly", 2), "This offer is not stackable; quantity must be 1");
    expectPlain400(await completeTestMode(await purchaseCode(project, user.id, "boost"), "once"), "This offer is an add-on to an offer that the customer does not have");

    // A refusal leaves the code usable.
    expect((await completeTestMode(pack, "single")).status).toBe(200);

    const basic = await purchaseCode(project, user.id, "basic");
    expect((await completeTestMode(basic, "monthly")).status).toBe(200);
    const again = await purchaseCode(project, user.id, "basic");
    expect((await publicCall("validate-code", { full_code: again })).body.already_bought_non_stackable).toBe(true);
    expectPlain400(await completeTestMode(again, "monthly"), "Customer already has purchased this offer; this offer is not stackable");

    const lifetime = await purchaseCode(project, user.id, "pro");
    expect((await publicCall("validate-code", { full_code: lifetime })).body.conflicting_group_offers).toEqual([{ offer_id: "basic", display_name: "Basic" }]);
    expectPlain400(await completeTestMode(lifetime, "lifetime"), "Customer already has a subscription in this group; one-time purchases are not allowed");

    // A subscription in the group replaces the running one; then the add-on may be bought.
    expect((await completeTestMode(lifetime, "monthly")).status).toBe(200);
    const subscriptions = await server.db.selectFrom("payment_subscriptions").select(["offer_id", "status", "creation_source"]).where("project_id", "=", project.projectId).orderBy("created_at").execute();
    expect(subscriptions).toEqual([
      { offer_id: "basic", status: "canceled", creation_source: "TEST_MODE" },
      { offer_id: "pro", status: "active", creation_source: "TEST_MODE" },
    ]);
    expect(await credits(project, user.id)).toBe(100 + 1000);
    expect((await completeTestMode(await purchaseCode(project, user.id, "boost"), "once")).status).toBe(200);
  });

  it("use a code once however many race for it: 16 parallel completions, one purchase", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const code = await purchaseCode(project, user.id, "credit-pack");
    const answers = await Promise.all(Array.from({ length: 16 }, () => completeTestMode(code, "single")));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expectKnownError(refused, "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await credits(project, user.id)).toBe(100);
  });

  it("by an admin: any price of the offer, a subscription for one interval, and only the admin's own project's codes", async () => {
    const project = await paymentsProject();
    const other = await paymentsProject();
    const user = await buyer(project);
    const team = await createTeam(project, [user.id]);
    expect((await adminTestMode(project, await purchaseCode(project, user.id, "credit-pack"), "staff")).status).toBe(200);
    const teamCode = await purchaseCode(project, team, "team-plan", "team");
    expectPlain400(await adminTestMode(other, teamCode, "monthly"), "Tenancy id does not match value from code data");
    expect((await as(project, "server", "/internal/payments/test-mode-purchase-session", { method: "POST", body: { full_code: teamCode, price_id: "monthly", quantity: 1 } })).status).toBe(401);
    const before = Date.now();
    expect((await adminTestMode(project, teamCode, "monthly", 1)).status).toBe(200);
    const subscription = await server.db.selectFrom("payment_subscriptions").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({ customer_type: "team", customer_id: team, status: "active", creation_source: "TEST_MODE", price_id: "monthly" });
    const end = new Date(subscription.current_period_start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    expect(subscription.current_period_end).toEqual(end);
    expect(subscription.current_period_start.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const seats = await as(project, "server", `/payments/items/team/${team}/seats`);
    expect(seats.body.quantity).toBe(5);
  });

  it("keep each project's payments to itself", async () => {
    const a = await paymentsProject();
    const b = await paymentsProject();
    const user = await buyer(a);
    expect((await completeTestMode(await purchaseCode(a, user.id, "credit-pack"), "single")).status).toBe(200);
    expect(await transactions(b)).toEqual([]);
    // B does not know A's user as a customer, and B's codes are its own.
    expectKnownError(await as(b, "server", "/payments/purchases/create-purchase-url", { method: "POST", body: { customer_type: "user", customer_id: user.id, offer_id: "pro" } }), "USER_NOT_FOUND", 404);
    const custom = "org-42";
    await server.db.insertInto("payment_one_time_purchases").values({ project_id: b.projectId, customer_type: "custom", customer_id: custom, offer_id: null, offer: "{}", price_id: null, quantity: 1, creation_source: "TEST_MODE" }).execute();
    expect(await transactions(a)).toHaveLength(1);
    expect(await credits(a, user.id)).toBe(100);
  });

  it("purchase-session needs Stripe: a server without a key says to complete the purchase in test mode", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const code = await purchaseCode(project, user.id, "credit-pack");
    expectPlain400(
      await publicCall("purchase-session", { full_code: code, price_id: "single", quantity: 1 }),
      "This server has no Stripe key (LATCHKEY_STRIPE_SECRET_KEY), so its payments run in test mode: complete the purchase with POST /payments/purchases/complete-test-mode-purchase (the purchase page does).",
    );
    expect((await completeTestMode(code, "single")).status).toBe(200);
  });
});

describe("@stackframe/js 2.8.41 createCheckoutUrl", () => {
  it("gives a signed-in user, for itself and for its team, a working purchase page URL", async () => {
    const project = await paymentsProject();
    const app = stackSdk(server, project).client();
    const email = `sdk-${crypto.randomUUID()}@example.com`;
    expect((await app.signUpWithCredential({ email, password: "correct horse", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    const team = await createTeam(project, [user.id]);
    const userUrl = await user.createCheckoutUrl({ offerId: "credit-pack" });
    const teamUrl = await (await user.getTeam(team))!.createCheckoutUrl({ offerId: "team-plan" });
    for (const url of [userUrl, teamUrl]) {
      expect(url.startsWith(`${server.env.publicUrl}/purchase/${project.projectId}_`)).toBe(true);
      const code = decodeURIComponent(new URL(url).pathname.split("/").pop()!);
      expect((await publicCall("validate-code", { full_code: code })).status).toBe(200);
    }
    const teamCode = decodeURIComponent(new URL(teamUrl).pathname.split("/").pop()!);
    expect((await completeTestMode(teamCode, "monthly")).status).toBe(200);
    expect((await as(project, "server", `/payments/items/team/${team}/seats`)).body.quantity).toBe(5);
  });
});

describe("@stackframe/js 2.8.108 createCheckoutUrl: products", () => {
  const codeOf = (url: string) => decodeURIComponent(new URL(url).pathname.split("/").pop()!);

  it("gives a signed-in user a link for a product by id, and a server one for an inline product", async () => {
    const project = await paymentsProject();
    const sdk = stackSdk(server, project, "2.8.108");
    const client = sdk.client();
    const email = `sdk-${crypto.randomUUID()}@example.com`;
    expect((await client.signUpWithCredential({ email, password: "correct horse", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })).status).toBe("ok");
    const user = await client.getUser({ or: "throw" });
    const byId = await user.createCheckoutUrl({ productId: "credit-pack" } as never);
    expect(byId.startsWith(`${server.env.publicUrl}/purchase/${project.projectId}_`)).toBe(true);
    expect((await publicCall("validate-code", { full_code: codeOf(byId) })).body.offer.display_name).toBe("Credit pack");

    const serverUser = (await sdk.server().getUser(user.id))!;
    const product = { display_name: "Custom pack", customer_type: "user", server_only: true, stackable: true, prices: { once: { USD: "5" } }, included_items: { credits: { quantity: 7 } } };
    const inline = await serverUser.createCheckoutUrl({ product } as never);
    const described = await publicCall("validate-code", { full_code: codeOf(inline) });
    expect(described.body.offer).toMatchObject({ display_name: "Custom pack", stackable: true });
    expect((await completeTestMode(codeOf(inline), "once", 2)).status).toBe(200);
    expect((await as(project, "server", `/payments/items/user/${user.id}/credits`)).body.quantity).toBe(14);
  });

  it("answers in products' words to 2.8.108, and keeps product fields out of 2.8.41 requests", async () => {
    const project = await paymentsProject();
    const { id } = await buyer(project);
    const newer = Object.fromEntries(Object.entries(project.headers("server")).map(([key, value]) => [key.replace(/^x-stack-/, "x-hexclave-"), value]));
    const inline = { display_name: "X", customer_type: "user", prices: { once: { USD: "1" } }, included_items: {} };
    const both = await api(server.url, "/payments/purchases/create-purchase-url", { headers: newer, body: { customer_type: "user", customer_id: id, product_id: "credit-pack", product_inline: inline } });
    expectPlain400(both, "Cannot specify both product_id and product_inline!");
    const older = await as(project, "server", "/payments/purchases/create-purchase-url", { method: "POST", body: { customer_type: "user", customer_id: id, product_id: "credit-pack" } });
    expect(older.body.code).toBe("SCHEMA_ERROR");
    expect(older.body.error).toContain("body contains unknown properties: product_id");
  });
});
