import { describe, expect, it } from "vitest";
import { addInterval, grantsBy } from "../src/services/payments-periods.js";
import { customerUser, daysAgo, inDays, insertPurchase, insertSubscription, LEDGER_CONFIG, ledgerProject, quantityOf } from "./support/payments-ledger-fixture.js";
import { as, configure, createTeam, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

/** "pro" with its weekly 100 credits expiring as `expires` says. */
const proExpiring = (expires: string) => ({
  "payments.offers.pro": { ...(LEDGER_CONFIG["payments.offers.pro"] as object), includedItems: { credits: { quantity: 100, repeat: [1, "week"], expires } } },
});

describe("item quantities from subscriptions", () => {
  it("when-repeated: only the current weekly grant counts while the subscription lives, and the group's default is no longer held", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    await insertSubscription(project, { customerId: user.id, offerId: "pro", start: daysAgo(10), end: inDays(20) });
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(100);
  });

  it("a live add-on subscription in the group does not displace the group's default", async () => {
    const project = await ledgerProject({
      "payments.offers.extra": { displayName: "Extra", customerType: "user", groupId: "plans", isAddOnTo: { pro: true }, prices: { monthly: { USD: "1", interval: [1, "month"] } }, includedItems: { credits: { quantity: 1 } } },
    });
    const user = await customerUser(project);
    await insertSubscription(project, { customerId: user.id, offerId: "extra", start: daysAgo(1), end: inDays(29) });
    // "free" (5) still held, plus the add-on's 1 (repeat never, when-repeated: counts while it lives).
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(6);
  });

  it("when-purchase-expires: every grant so far counts while it lives, none after it ended; the default comes back", async () => {
    const project = await ledgerProject(proExpiring("when-purchase-expires"));
    const live = await customerUser(project);
    await insertSubscription(project, { customerId: live.id, offerId: "pro", quantity: 2, start: daysAgo(10), end: inDays(20) });
    // Grants 10 and 3 days ago, × 2.
    expect(await quantityOf(project, "user", live.id, "credits")).toBe(400);
    const ended = await customerUser(project);
    await insertSubscription(project, { customerId: ended.id, offerId: "pro", status: "canceled", start: daysAgo(24), end: inDays(6), updatedAt: daysAgo(2) });
    expect(await quantityOf(project, "user", ended.id, "credits")).toBe(5);
  });

  it("never: every grant made while it lived counts, also after it ended", async () => {
    const project = await ledgerProject(proExpiring("never"));
    const user = await customerUser(project);
    // Granted 24, 17, 10 and 3 days ago; canceled 2 days ago; the default "free" (5) is held again.
    await insertSubscription(project, { customerId: user.id, offerId: "pro", status: "canceled", start: daysAgo(24), end: inDays(6), updatedAt: daysAgo(2) });
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(405);
  });

  it("a period that ran out without renewal ends the subscription; an unpaid (incomplete) one never granted anything", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    await insertSubscription(project, { customerId: user.id, offerId: "pro", start: daysAgo(40), end: daysAgo(10) });
    await insertSubscription(project, { customerId: user.id, offerId: "pro", status: "incomplete", start: daysAgo(1), end: inDays(29) });
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(5);
  });

  it("follows the offer as configured now, falls back to the stored snapshot once the config drops it", async () => {
    const project = await ledgerProject();
    const team = await createTeam(project);
    await insertSubscription(project, { customerType: "team", customerId: team, offerId: "team-plan", quantity: 2, start: daysAgo(3), end: inDays(27) });
    expect(await quantityOf(project, "team", team, "seats")).toBe(10);
    await configure(project, { "payments.offers.team-plan.includedItems.seats.quantity": 8 });
    expect(await quantityOf(project, "team", team, "seats")).toBe(16);
    await configure(project, { "payments.offers.team-plan": null });
    expect(await quantityOf(project, "team", team, "seats")).toBe(10);
  });
});

describe("item quantities from one-time purchases and inline offers", () => {
  it("counts included quantity × purchase quantity, never expiring; an inline offer keeps its snapshot", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    await insertPurchase(project, { customerId: user.id, offerId: "pack", quantity: 3, at: daysAgo(400) });
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(5 + 150);
    const inline = { display_name: "Promo", customer_type: "custom", server_only: true, prices: { once: { USD: "2" } }, included_items: { tokens: { quantity: 7 } } };
    await insertPurchase(project, { customerType: "custom", customerId: "org:acme", offerId: null, offer: inline, quantity: 2 });
    expect(await quantityOf(project, "custom", "org:acme", "tokens")).toBe(14);
  });
});

describe("GET /payments/offers/{customer_type}/{customer_id}", () => {
  it("lists the buyable offers of the customer's type with their public prices, marking what the customer holds", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    const before = await as(project, "client", `/payments/offers/user/${user.id}`, { tokens: user.tokens });
    expect(before.status, before.text).toBe(200);
    expect(before.body.test_mode).toBe(true); // this server has no Stripe key
    expect(before.body.items.map((o: { id: string; owned: boolean }) => [o.id, o.owned])).toEqual([["free", true], ["pack", false], ["pro", false]]);
    expect(before.body.items[2]).toEqual({
      id: "pro", display_name: "Pro", customer_type: "user", group_id: "plans", is_add_on_to: false, stackable: false,
      prices: { monthly: { USD: "9.99", interval: [1, "month"] } }, owned: false,
    });
    expect(before.body.items[0].prices).toBe("include-by-default");

    await insertSubscription(project, { customerId: user.id, offerId: "pro", start: daysAgo(1), end: inDays(29) });
    await insertPurchase(project, { customerId: user.id, offerId: "pack" });
    const plans = await as(project, "client", `/payments/offers/user/${user.id}?group_id=plans`, { tokens: user.tokens });
    expect(plans.body.items.map((o: { id: string; owned: boolean }) => [o.id, o.owned])).toEqual([["free", false], ["pro", true]]);
    const all = await as(project, "server", `/payments/offers/user/${user.id}`);
    expect(all.body.items.find((o: { id: string }) => o.id === "pack").owned).toBe(true);

    const team = await createTeam(project, [user.id]);
    const teamOffers = await as(project, "client", `/payments/offers/team/${team}`, { tokens: user.tokens });
    expect(teamOffers.body.items).toEqual([expect.objectContaining({ id: "team-plan", prices: { monthly: { USD: "20", interval: [1, "month"], free_trial: [7, "day"] } } })]);
    const stranger = await customerUser(project);
    expect((await as(project, "client", `/payments/offers/user/${user.id}`, { tokens: stranger.tokens })).status).toBe(403);
  });
});

describe("repeat arithmetic", () => {
  it("moves calendar months from the anchor without drifting after a short month", () => {
    const jan31 = new Date(Date.UTC(2025, 0, 31, 12));
    expect(addInterval(jan31, [1, "month"]).toISOString()).toBe("2025-02-28T12:00:00.000Z");
    expect(addInterval(jan31, [1, "month"], 2).toISOString()).toBe("2025-03-31T12:00:00.000Z");
    expect(addInterval(new Date(Date.UTC(2024, 1, 29)), [1, "year"]).toISOString()).toBe("2025-02-28T00:00:00.000Z");
    expect(grantsBy(jan31, [1, "month"], new Date(Date.UTC(2025, 1, 28, 11, 59)))).toBe(1);
    expect(grantsBy(jan31, [1, "month"], new Date(Date.UTC(2025, 1, 28, 12)))).toBe(2);
    expect(grantsBy(jan31, [1, "month"], new Date(Date.UTC(2026, 0, 31, 12)))).toBe(13);
    expect(grantsBy(jan31, [2, "week"], new Date(Date.UTC(2025, 1, 14, 12)))).toBe(2);
    expect(grantsBy(jan31, [1, "day"], new Date(Date.UTC(2025, 0, 30)))).toBe(0);
  });
});
