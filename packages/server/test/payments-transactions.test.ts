import { describe, expect, it } from "vitest";
import { customerUser, daysAgo, inDays, insertPurchase, insertSubscription, ledgerProject, updateQuantity } from "./support/payments-ledger-fixture.js";
import { as, expectKnownError, expectSchemaError, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

describe("GET /internal/payments/transactions", () => {
  it("lists subscriptions, one-time purchases and quantity changes newest first, paged by a stable cursor across kinds", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    const subscription = await insertSubscription(project, { customerId: user.id, offerId: "pro", quantity: 2, start: daysAgo(3), end: inDays(27), testMode: false });
    // Two rows at the very same instant: the order between kinds is still fixed.
    const same = daysAgo(2);
    const purchase = await insertPurchase(project, { customerId: user.id, offerId: "pack", quantity: 3, at: same });
    const tie = await insertSubscription(project, { customerType: "custom", customerId: "org:acme", offerId: null, offer: { display_name: "Deal", customer_type: "custom", prices: { once: { EUR: "4.50", interval: [1, "year"], free_trial: [1, "week"] } }, included_items: {} }, priceId: "once", start: same, end: inDays(1) });
    expect((await updateQuantity(project, "custom", "org:acme", "tokens", { delta: -4, description: "used", expires_at: inDays(3).toISOString() }, true)).status).toBe(200);

    const all = await as(project, "admin", "/internal/payments/transactions");
    expect(all.status, all.text).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.transactions.map((t: { id: string; type: string }) => t.type)).toEqual(["item_quantity_change", "subscription", "one_time", "subscription"]);
    const [change, deal, bought, sub] = all.body.transactions;
    expect(change).toEqual({
      id: expect.any(String), type: "item_quantity_change", created_at_millis: expect.any(Number), customer_type: "custom", customer_id: "org:acme",
      quantity: -4, test_mode: false, offer_display_name: null, price: null, status: null, item_id: "tokens", description: "used", expires_at_millis: expect.any(Number),
    });
    expect(deal).toMatchObject({ id: tie, offer_display_name: "Deal", price: { EUR: "4.50", interval: [1, "year"] }, status: "active", test_mode: true });
    expect(bought).toEqual({
      id: purchase, type: "one_time", created_at_millis: same.getTime(), customer_type: "user", customer_id: user.id, quantity: 3, test_mode: true,
      offer_display_name: "Credit pack", price: { USD: "5", EUR: "4.50" }, status: null,
    });
    expect(sub).toMatchObject({ id: subscription, quantity: 2, test_mode: false, price: { USD: "9.99", interval: [1, "month"] }, status: "active" });

    // Page by one: the same rows in the same order, then no cursor.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await as(project, "admin", `/internal/payments/transactions?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.body.transactions).toHaveLength(1);
      paged.push(page.body.transactions[0].id);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.body.transactions.map((t: { id: string }) => t.id));

    const users = await as(project, "admin", "/internal/payments/transactions?customer_type=user&type=one_time");
    expect(users.body.transactions.map((t: { id: string }) => t.id)).toEqual([purchase]);
    // Another project sees none of it.
    expect((await as(await ledgerProject(), "admin", "/internal/payments/transactions")).body).toEqual({ transactions: [], next_cursor: null });
  });

  it("is admin-only, checks its query and clamps limit to 1…200 as the reference does", async () => {
    const project = await ledgerProject();
    for (let i = 0; i < 3; i++) await updateQuantity(project, "custom", "c", "tokens", { delta: 1 });
    expect((await as(project, "admin", "/internal/payments/transactions?limit=0")).body.transactions).toHaveLength(1);
    expect((await as(project, "admin", "/internal/payments/transactions?limit=2")).body.transactions).toHaveLength(2);
    expect((await as(project, "admin", "/internal/payments/transactions?limit=500")).body.transactions).toHaveLength(3);
    expect((await as(project, "admin", "/internal/payments/transactions?limit=many")).body.transactions).toHaveLength(3);
    expectKnownError(await as(project, "server", "/internal/payments/transactions"), "INSUFFICIENT_ACCESS_TYPE", 401);
    expectSchemaError(await as(project, "admin", "/internal/payments/transactions?cursor=nonsense"), "Invalid cursor");
    expectSchemaError(await as(project, "admin", "/internal/payments/transactions?type=refund"), "query.type must be one of the following values: subscription, one_time, item_quantity_change");
  });
});
