import { describe, expect, it } from "vitest";
import { hashSecret } from "../src/crypto/secrets.js";
import { createTeam, expectKnownError, server, useServerForFile } from "./support/users-fixture.js";
import {
  buyer,
  completeTestMode,
  createUrl,
  expectPlain400,
  paymentsProject,
  publicCall,
  purchaseCode,
} from "./support/payments-purchases-fixture.js";

// No Stripe key: every project's payments run in test mode (issue 32).
useServerForFile();

const INLINE = {
  display_name: "Custom deal",
  customer_type: "user",
  prices: { deal: { USD: "12.50", interval: [1, "year"] } },
  included_items: { credits: { quantity: 7 } },
};

describe("create-purchase-url", () => {
  it("answers this server's purchase page holding a 24 h single-use code of the project, stored only as a hash", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const made = await createUrl(project, "client", { customer_type: "user", customer_id: user.id, offer_id: "credit-pack" }, user.tokens);
    expect(made.status, made.text).toBe(200);
    const url = new URL(made.body.url);
    expect(`${url.origin}`).toBe(server.env.publicUrl);
    const fullCode = decodeURIComponent(url.pathname.replace(/^\/purchase\//, ""));
    expect(fullCode).toMatch(new RegExp(`^${project.projectId}_[0-9a-z]{45}$`));
    const row = await server.db.selectFrom("payment_purchase_codes").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
    expect(Buffer.from(row.code_hash)).toEqual(Buffer.from(hashSecret(fullCode.split("_")[1]!)));
    expect(JSON.stringify(row)).not.toContain(fullCode.split("_")[1]);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(row).toMatchObject({ customer_type: "user", customer_id: user.id, offer_id: "credit-pack", stripe_account_id: null, stripe_customer_id: null });
  });

  it("refuses in the reference's order and words: both or neither offer, inline from a client, unknown or server-only offers, wrong customer type, missing customers", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const base = { customer_type: "user", customer_id: user.id };
    expectPlain400(await createUrl(project, "server", { ...base, offer_id: "pro", inline_offer: INLINE }), "Cannot specify both offer_id and offer_inline!");
    expectPlain400(await createUrl(project, "server", { ...base, offer_id: "pro", offer_inline: INLINE }), "Cannot specify both offer_id and offer_inline!");
    expectPlain400(await createUrl(project, "server", base), "Must specify either offer_id or offer_inline!");
    expectPlain400(
      await createUrl(project, "client", { ...base, inline_offer: INLINE }, user.tokens),
      "Cannot specify offer_inline when calling from client! Please call with a server API key, or use the offer_id parameter.",
    );

    const unknown = await createUrl(project, "server", { ...base, offer_id: "nope" });
    expectKnownError(unknown, "OFFER_DOES_NOT_EXIST", 400);
    expect(unknown.body).toMatchObject({ error: 'Offer with ID "nope" does not exist.', details: { offer_id: "nope", access_type: "server" } });
    // A client is not told that a server-only offer exists: the same answer as for one that does not.
    const hidden = await createUrl(project, "client", { ...base, offer_id: "hidden" }, user.tokens);
    expectKnownError(hidden, "OFFER_DOES_NOT_EXIST", 400);
    expect(hidden.body.error).toBe(`Offer with ID "hidden" does not exist or you don't have permissions to access it.`);
    expect((await createUrl(project, "server", { ...base, offer_id: "hidden" })).status).toBe(200);

    const mismatch = await createUrl(project, "server", { ...base, offer_id: "team-plan" });
    expectKnownError(mismatch, "OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
    expect(mismatch.body.details).toEqual({ offer_id: "team-plan", customer_id: user.id, offer_customer_type: "team", actual_customer_type: "user" });
    expect(mismatch.body.error).toBe(
      `The user with ID "${user.id}" is not a valid customer for the inline offer that has been passed in. The offer is configured to only be available for team customers, but the customer is a user.`,
    );

    expectKnownError(await createUrl(project, "server", { ...base, customer_id: crypto.randomUUID(), offer_id: "pro" }), "USER_NOT_FOUND", 404);
    const team = crypto.randomUUID();
    expectKnownError(await createUrl(project, "server", { customer_type: "team", customer_id: team, offer_id: "team-plan" }), "TEAM_NOT_FOUND", 404);
  });

  it("lets a client buy only for itself and its teams; servers for anyone, inline offers under either field name", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const other = await buyer(project);
    const team = await createTeam(project, [user.id]);
    const otherTeam = await createTeam(project, [other.id]);
    expect((await createUrl(project, "client", { customer_type: "team", customer_id: team, offer_id: "team-plan" }, user.tokens)).status).toBe(200);
    for (const body of [
      { customer_type: "user", customer_id: other.id, offer_id: "pro" },
      { customer_type: "team", customer_id: otherTeam, offer_id: "team-plan" },
    ]) {
      const refused = await createUrl(project, "client", body, user.tokens);
      expect(refused.status, refused.text).toBe(403);
    }
    expectKnownError(await createUrl(project, "client", { customer_type: "user", customer_id: user.id, offer_id: "pro" }), "USER_AUTHENTICATION_REQUIRED", 401);
    for (const field of ["inline_offer", "offer_inline"]) {
      const made = await createUrl(project, "server", { customer_type: "user", customer_id: other.id, [field]: INLINE });
      expect(made.status, made.text).toBe(200);
      const code = decodeURIComponent(new URL(made.body.url).pathname.split("/").pop()!);
      const read = await publicCall("validate-code", { full_code: code });
      expect(read.body.offer).toEqual({ display_name: "Custom deal", customer_type: "user", prices: { deal: { USD: "12.50", interval: [1, "year"] } }, stackable: false });
    }
  });

  it("keeps a return_url under a trusted domain in the page's address and refuses any other", async () => {
    const project = await paymentsProject({ "domains.trustedDomains.app": { baseUrl: "https://shop.example.com", handlerPath: "/handler" } });
    const user = await buyer(project);
    const body = { customer_type: "user", customer_id: user.id, offer_id: "pro" };
    const made = await createUrl(project, "server", { ...body, return_url: "https://shop.example.com/billing" });
    expect(new URL(made.body.url).searchParams.get("return_url")).toBe("https://shop.example.com/billing");
    expectKnownError(await createUrl(project, "server", { ...body, return_url: "https://evil.example.net/" }), "REDIRECT_URL_NOT_WHITELISTED", 400);
  });
});

describe("validate-code", () => {
  it("shows the offer with its client-side prices, the customer's standing and test mode, to anyone holding the code", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    const code = await purchaseCode(project, user.id, "credit-pack");
    const read = await publicCall("validate-code", { full_code: code });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({
      offer: { display_name: "Credit pack", customer_type: "user", prices: { single: { USD: "5.00", EUR: "4.5" } }, stackable: true },
      stripe_account_id: null,
      project_id: project.projectId,
      already_bought_non_stackable: false,
      conflicting_group_offers: [],
      test_mode: true,
    });
  });

  it("answers the verification-code errors for unknown, used and expired codes", async () => {
    const project = await paymentsProject();
    const user = await buyer(project);
    for (const wrong of ["nope", `${project.projectId}_${"a".repeat(45)}`, `${crypto.randomUUID()}_abc`]) {
      const read = await publicCall("validate-code", { full_code: wrong });
      expectKnownError(read, "VERIFICATION_CODE_NOT_FOUND", 404);
      expect(read.body.error).toBe("The verification code does not exist for this project.");
    }
    const used = await purchaseCode(project, user.id, "credit-pack");
    expect((await completeTestMode(used, "single")).status).toBe(200);
    expectKnownError(await publicCall("validate-code", { full_code: used }), "VERIFICATION_CODE_ALREADY_USED", 409);
    expectKnownError(await completeTestMode(used, "single"), "VERIFICATION_CODE_ALREADY_USED", 409);

    // Its 24 hours are over (the clock moved on: its expiry is now in the past).
    const old = await purchaseCode(project, user.id, "credit-pack");
    await server.db.updateTable("payment_purchase_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).where("used_at", "is", null).execute();
    expectKnownError(await publicCall("validate-code", { full_code: old }), "VERIFICATION_CODE_EXPIRED", 400);
    expectKnownError(await completeTestMode(old, "single"), "VERIFICATION_CODE_EXPIRED", 400);
  });
});
