import { expect } from "vitest";
import type { ApiResponse } from "./api.js";
import { as, configure, createUser, server, signIn, type Tokens } from "./users-fixture.js";
import { createTestProject, type TestProject } from "./test-server.js";

/** Shared setup of the ledger suites (issue 32): a project with items of each customer type and a few offers. */

export const LEDGER_CONFIG: Record<string, unknown> = {
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.items.seats": { displayName: "Seats", customerType: "team" },
  "payments.items.tokens": { displayName: "Tokens", customerType: "custom" },
  "payments.offers.free": {
    displayName: "Free",
    customerType: "user",
    groupId: "plans",
    prices: "include-by-default",
    includedItems: { credits: { quantity: 5, repeat: [1, "month"], expires: "when-repeated" } },
  },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    prices: { monthly: { USD: "9.99", interval: [1, "month"] }, staff: { USD: "1", serverOnly: true } },
    includedItems: {
      credits: { quantity: 100, repeat: [1, "week"], expires: "when-repeated" },
    },
  },
  "payments.offers.pack": {
    displayName: "Credit pack",
    customerType: "user",
    stackable: true,
    prices: { once: { USD: "5", EUR: "4.50" } },
    includedItems: { credits: { quantity: 50, repeat: "never", expires: "never" } },
  },
  "payments.offers.secret": { displayName: "Secret", customerType: "user", serverOnly: true, prices: { once: { USD: "1" } } },
  "payments.offers.team-plan": {
    displayName: "Team plan",
    customerType: "team",
    prices: { monthly: { USD: "20", interval: [1, "month"], freeTrial: [7, "day"] } },
    includedItems: { seats: { quantity: 5, repeat: "never", expires: "when-purchase-expires" } },
  },
};

export async function ledgerProject(extra: Record<string, unknown> = {}): Promise<TestProject> {
  const project = await createTestProject(server);
  await configure(project, { ...LEDGER_CONFIG, ...extra });
  return project;
}

export async function customerUser(project: TestProject): Promise<{ id: string; tokens: Tokens }> {
  const user = await createUser(project, { primary_email: `ledger-${crypto.randomUUID()}@example.com` });
  return { id: user.id, tokens: await signIn(project, user.id) };
}

export const itemPath = (type: string, id: string, item: string) => `/payments/items/${type}/${encodeURIComponent(id)}/${item}`;

export const getItem = (project: TestProject, access: "client" | "server" | "admin", type: string, id: string, item: string, tokens?: Tokens) =>
  as(project, access, itemPath(type, id, item), { tokens });

export const updateQuantity = (project: TestProject, type: string, id: string, item: string, body: Record<string, unknown>, allowNegative?: boolean) =>
  as(project, "server", `${itemPath(type, id, item)}/update-quantity${allowNegative === undefined ? "" : `?allow_negative=${allowNegative}`}`, { method: "POST", body });

export async function quantityOf(project: TestProject, type: string, id: string, item: string): Promise<number> {
  const response: ApiResponse = await getItem(project, "server", type, id, item);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.quantity;
}

const DAY = 86_400_000;
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
export const inDays = (days: number) => new Date(Date.now() + days * DAY);

/** A subscription row as the purchase and Stripe paths write it (set up directly: this is data, not a mock). */
export async function insertSubscription(project: TestProject, row: {
  customerType?: "user" | "team" | "custom"; customerId: string; offerId: string | null; offer?: unknown; priceId?: string | null;
  quantity?: number; status?: string; start: Date; end: Date | null; updatedAt?: Date; testMode?: boolean;
}): Promise<string> {
  const inserted = await server.db.insertInto("payment_subscriptions").values({
    project_id: project.projectId,
    customer_type: row.customerType ?? "user",
    customer_id: row.customerId,
    offer_id: row.offerId,
    offer: JSON.stringify(row.offer ?? LEDGER_CONFIG[`payments.offers.${row.offerId}`] ?? {}),
    price_id: row.priceId ?? "monthly",
    quantity: row.quantity ?? 1,
    status: row.status ?? "active",
    current_period_start: row.start,
    current_period_end: row.end,
    creation_source: row.testMode === false ? "PURCHASE_PAGE" : "TEST_MODE",
    created_at: row.start,
    updated_at: row.updatedAt ?? row.start,
  }).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

export async function insertPurchase(project: TestProject, row: {
  customerType?: "user" | "team" | "custom"; customerId: string; offerId: string | null; offer?: unknown; priceId?: string | null; quantity?: number; at?: Date; testMode?: boolean;
}): Promise<string> {
  const inserted = await server.db.insertInto("payment_one_time_purchases").values({
    project_id: project.projectId,
    customer_type: row.customerType ?? "user",
    customer_id: row.customerId,
    offer_id: row.offerId,
    offer: JSON.stringify(row.offer ?? LEDGER_CONFIG[`payments.offers.${row.offerId}`] ?? {}),
    price_id: row.priceId ?? "once",
    quantity: row.quantity ?? 1,
    creation_source: row.testMode === false ? "PURCHASE_PAGE" : "TEST_MODE",
    ...(row.at ? { created_at: row.at } : {}),
  }).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}
