import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { paymentsOf } from "../src/apps/client-payment-actions.js";
import type { CachedStore } from "../src/stores/cached-store.js";
import { APP_ORIGIN, PASSWORD, adminAppFor, clientAppFor, createTestProject, dashboardAppFor, email, serverAppFor, useLiveServer } from "./support/live-server.js";

/**
 * The payment calls of the client, server and admin apps against a real server (no Stripe key: test mode): what
 * the pricing table and item balance widgets show, and the purchases and quantity changes that change it.
 */
const live = useLiveServer();

const CONFIG: Record<string, unknown> = {
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.items.seats": { displayName: "Seats", customerType: "team" },
  "payments.offers.free": { displayName: "Free", customerType: "user", groupId: "plans", prices: "include-by-default", includedItems: { credits: { quantity: 10 } } },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    prices: { monthly: { USD: "9.99", EUR: "9.5", interval: [1, "month"], freeTrial: [7, "day"] } },
    includedItems: { credits: { quantity: 1000, repeat: "never", expires: "when-purchase-expires" } },
  },
  "payments.offers.boost": { displayName: "Boost", customerType: "user", isAddOnTo: { pro: true }, prices: { once: { USD: "3" } } },
  "payments.offers.hidden": { displayName: "Hidden", customerType: "user", groupId: "plans", serverOnly: true, prices: { once: { USD: "1" } } },
  "payments.offers.team-plan": { displayName: "Team plan", customerType: "team", prices: { monthly: { USD: "20", interval: [1, "month"] } } },
};

/** A project with plans and credits, a signed-up user with their own app, and the project's server and admin apps. */
async function shop() {
  const project = await createTestProject(live.server(), "Shop");
  const admin = adminAppFor(live.server(), project);
  await admin.updateConfigOverride(CONFIG);
  const client = clientAppFor(live.server(), project, { page: `${APP_ORIGIN}/pricing` });
  const { userId } = await client.app.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
  return { project, admin, server: serverAppFor(live.server(), project), app: client.app, userId };
}

/** The store's value once loaded, kept subscribed so reloads land in it. */
async function watch<T>(store: CachedStore<T>) {
  const stop = store.subscribe(() => {});
  await expect.poll(() => store.get().status).toBe("ready");
  return {
    value: () => {
      const state = store.get();
      if (state.status !== "ready") throw new Error(`store is ${state.status}`);
      return state.value;
    },
    stop,
  };
}

/** Buys an offer the way the hosted page's test mode does it for an admin: a purchase link's code, completed. */
async function buy(s: Awaited<ReturnType<typeof shop>>, offerId: string, priceId: string) {
  const url = await paymentsOf(s.app).createCheckoutUrl({ offerId });
  const fullCode = decodeURIComponent(new URL(url).pathname.split("/").pop()!);
  await s.admin.testModePurchase({ fullCode, priceId });
}

describe("client payments", () => {
  it("lists a group's offers with decimal prices, intervals, the default plan owned, and no server-only offer", async () => {
    const s = await shop();
    const offers = (await paymentsOf(s.app).listOffers({ groupId: "plans" })).sort((a, b) => a.id.localeCompare(b.id));
    expect(offers.map((o) => o.id)).toEqual(["free", "pro"]);
    expect(offers[0]).toMatchObject({ displayName: "Free", prices: "include-by-default", owned: true, isAddOnTo: false, groupId: "plans" });
    expect(offers[1]).toMatchObject({
      owned: false,
      prices: [{ id: "monthly", amounts: { USD: "9.99", EUR: "9.5" }, interval: [1, "month"], freeTrial: [7, "day"] }],
    });
    const all = await paymentsOf(s.app).listOffers();
    expect(all.find((o) => o.id === "boost")).toMatchObject({ isAddOnTo: ["pro"], groupId: null });
    expect(all.map((o) => o.id)).not.toContain("hidden");
  });

  it("reads the signed-in user's item, and purchase links for the user and for one of their teams", async () => {
    const s = await shop();
    expect(await paymentsOf(s.app).getItem({ itemId: "credits" })).toEqual({ id: "credits", displayName: "Credits", quantity: 10, nonNegativeQuantity: 10 });
    const url = new URL(await paymentsOf(s.app).createCheckoutUrl({ offerId: "pro", returnUrl: `${APP_ORIGIN}/pricing` }));
    expect(url.origin).toBe(live.server().env.publicUrl);
    expect(url.pathname).toMatch(new RegExp(`^/purchase/${s.project.projectId}_`));
    expect(url.searchParams.get("return_url")).toBe(`${APP_ORIGIN}/pricing`);

    // For a team the user is a member of: the team's offer.
    const team = await s.admin.createServerTeam({ displayName: "Crew" });
    await s.admin.addServerTeamMember(team.id, s.userId);
    expect(await paymentsOf(s.app).createCheckoutUrl({ offerId: "team-plan", teamId: team.id })).toMatch(new RegExp(`/purchase/${s.project.projectId}_`));
    expect((await paymentsOf(s.app).listOffers({ teamId: team.id })).map((o) => o.id)).toEqual(["team-plan"]);
  });

  it("refuses another user's items and server-only offers to a client with the catalogue's errors", async () => {
    const s = await shop();
    const other = await s.server.createUser({ displayName: "Someone else" });
    // A client acts only for itself and its teams (the reference's plain 403).
    await expect(paymentsOf(s.app).getItem({ itemId: "credits", userId: other.id })).rejects.toMatchObject({ name: "HttpStatusError", status: 403 });
    await expect(paymentsOf(s.app).getItem({ itemId: "nope" })).rejects.toBeInstanceOf(KnownErrors.ItemNotFound);
    const hidden = paymentsOf(s.app).createCheckoutUrl({ offerId: "hidden" });
    await expect(hidden).rejects.toBeInstanceOf(KnownErrors.OfferDoesNotExist);
    await expect(hidden).rejects.toMatchObject({ message: `Offer with ID "hidden" does not exist or you don't have permissions to access it.` });
  });

  it("updates an item store and the plan store after a purchase made elsewhere (explicit refresh) and a change this app made", async () => {
    const s = await shop();
    const credits = await watch(paymentsOf(s.app).itemStore({ itemId: "credits" }));
    const plans = await watch(paymentsOf(s.app).offersStore({ groupId: "plans" }));
    expect(credits.value()?.quantity).toBe(10);
    expect(plans.value()?.offers.filter((o) => o.owned).map((o) => o.id)).toEqual(["free"]);
    expect(plans.value()?.testMode).toBe(true); // the test server has no Stripe key
    // The same item and customer share one store.
    expect(paymentsOf(s.app).itemStore({ itemId: "credits" })).toBe(paymentsOf(s.app).itemStore({ itemId: "credits" }));

    // Bought elsewhere (the hosted page): the app learns of it on an explicit refresh.
    await buy(s, "pro", "monthly");
    await paymentsOf(s.app).refreshPayments();
    expect(credits.value()?.quantity).toBe(1000);
    expect(plans.value()?.offers.filter((o) => o.owned).map((o) => o.id)).toEqual(["pro"]);

    // A change this app made itself (a server app's) reloads its stores. (Coming back to the page, focus and
    // visibility, is proven in Chromium: packages/elements/test/payments.browser.test.ts.)
    const serverCredits = await watch(s.server.itemStore({ itemId: "credits", userId: s.userId }));
    await (await s.server.getItem({ itemId: "credits", userId: s.userId })).increaseQuantity(5);
    expect(serverCredits.value()?.quantity).toBe(1005);
    serverCredits.stop();
    credits.stop();
    plans.stop();
  });

  it("holds null in the signed-in user's stores when signed out, and the new user's data after a sign-in", async () => {
    const s = await shop();
    await (await s.server.getItem({ itemId: "credits", userId: s.userId })).increaseQuantity(5);
    const credits = await watch(paymentsOf(s.app).itemStore({ itemId: "credits" }));
    expect(credits.value()?.quantity).toBe(15);
    await s.app.signOut();
    await expect.poll(() => credits.value()).toBeNull();
    await s.app.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
    await expect.poll(() => credits.value()?.quantity).toBe(10);
    credits.stop();
  });
});

describe("the dev server's demo project", () => {
  it("sells the demo's plans: free by default with 10 credits, pro at USD 9.99 a month", async () => {
    // In dev mode the internal project is what the demo pages use (services/seed.ts seeds its plans).
    const app = dashboardAppFor(live.server());
    await app.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
    const plans = await paymentsOf(app).listOffers({ groupId: "plans" });
    expect(plans.map((o) => [o.id, o.owned])).toEqual([["free", true], ["pro", false]]);
    expect(plans[1]!.prices).toEqual([{ id: "monthly", amounts: { USD: "9.99" }, interval: [1, "month"] }]);
    expect((await paymentsOf(app).getItem({ itemId: "credits" })).quantity).toBe(10);
    expect((await paymentsOf(app).listOffers()).map((o) => o.id)).toContain("credit-pack");
  });
});

describe("server items", () => {
  it("increases, decreases and tries to decrease a user's, a team's and a custom customer's items", async () => {
    const s = await shop();
    const credits = await s.server.getItem({ itemId: "credits", userId: s.userId });
    expect(credits).toMatchObject({ id: "credits", displayName: "Credits", quantity: 10 });
    await credits.increaseQuantity(5, { description: "welcome bonus" });
    expect((await s.server.getItem({ itemId: "credits", userId: s.userId })).quantity).toBe(15);
    expect(await credits.tryDecreaseQuantity(20)).toBe(false);
    expect((await s.server.getItem({ itemId: "credits", userId: s.userId })).quantity).toBe(15);
    expect(await credits.tryDecreaseQuantity(15)).toBe(true);
    await credits.decreaseQuantity(3);
    const overdrawn = await s.server.getItem({ itemId: "credits", userId: s.userId });
    expect(overdrawn).toMatchObject({ quantity: -3, nonNegativeQuantity: 0 });

    const team = await s.admin.createServerTeam({ displayName: "Crew" });
    const seats = await s.server.getItem({ itemId: "seats", teamId: team.id });
    await seats.increaseQuantity(4);
    expect((await s.server.getItem({ itemId: "seats", teamId: team.id })).quantity).toBe(4);

    await s.admin.updateConfigOverride({ "payments.items.api-calls": { displayName: "API calls", customerType: "custom" } });
    const calls = await s.server.getItem({ itemId: "api-calls", customCustomerId: "org/42" });
    expect(calls.quantity).toBe(0);
    await calls.increaseQuantity(100, { expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await s.server.getItem({ itemId: "api-calls", customCustomerId: "org/42" })).quantity).toBe(100);
  });

  it("says which item is of another customer type with the catalogue's error", async () => {
    const s = await shop();
    await expect(s.server.getItem({ itemId: "seats", userId: s.userId })).rejects.toBeInstanceOf(KnownErrors.ItemCustomerTypeDoesNotMatch);
  });
});

describe("admin payments", () => {
  it("lists a test-mode purchase and a quantity change as transactions, newest first, and pages through them", async () => {
    const s = await shop();
    await buy(s, "pro", "monthly");
    await (await s.server.getItem({ itemId: "credits", userId: s.userId })).increaseQuantity(2, { description: "support gift" });
    const { transactions, nextCursor } = await s.admin.listTransactions();
    expect(nextCursor).toBeNull();
    expect(transactions.map((t) => t.type)).toEqual(["item_quantity_change", "subscription"]);
    expect(transactions[0]).toMatchObject({ customerType: "user", customerId: s.userId, quantity: 2, itemId: "credits", description: "support gift", price: null });
    expect(transactions[1]).toMatchObject({ offerDisplayName: "Pro", testMode: true, price: { amounts: { USD: "9.99", EUR: "9.5" }, interval: [1, "month"] } });
    expect(transactions[1]!.createdAt).toBeInstanceOf(Date);

    const first = await s.admin.listTransactions({ limit: 1 });
    expect(first.transactions.map((t) => t.id)).toEqual([transactions[0]!.id]);
    const second = await s.admin.listTransactions({ limit: 1, cursor: first.nextCursor! });
    expect(second.transactions.map((t) => t.id)).toEqual([transactions[1]!.id]);
    expect((await s.admin.listTransactions({ type: "subscription" })).transactions).toHaveLength(1);
  });

  it("has no Stripe account before setup (null, not an error)", async () => {
    const s = await shop();
    expect(await s.admin.getStripeAccountInfo()).toBeNull();
  });
});
