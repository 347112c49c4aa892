import { expect } from "vitest";
import { api, type ApiResponse } from "./api.js";
import { as, configure, createUser, server, signIn, type Tokens } from "./users-fixture.js";
import { createTestProject, type TestProject } from "./test-server.js";

/** A project with a payments config for the purchase suites (issue 32): plans, credit packs, a team offer. */
export const PAYMENTS_CONFIG: Record<string, unknown> = {
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.items.seats": { displayName: "Seats", customerType: "team" },
  "payments.offers.credit-pack": {
    displayName: "Credit pack",
    customerType: "user",
    stackable: true,
    prices: { single: { USD: "5.00", EUR: "4.5" }, staff: { USD: "1", serverOnly: true } },
    includedItems: { credits: { quantity: 100, repeat: "never", expires: "never" } },
  },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    prices: { monthly: { USD: "9.99", interval: [1, "month"] }, lifetime: { USD: "199" } },
    includedItems: { credits: { quantity: 1000, repeat: "never", expires: "when-purchase-expires" } },
  },
  "payments.offers.basic": { displayName: "Basic", customerType: "user", groupId: "plans", prices: { monthly: { USD: "4", interval: [1, "month"] } } },
  "payments.offers.boost": { displayName: "Boost", customerType: "user", isAddOnTo: { pro: true }, prices: { once: { USD: "3" } } },
  "payments.offers.hidden": { displayName: "Hidden", customerType: "user", serverOnly: true, prices: { once: { USD: "1" } } },
  "payments.offers.team-plan": {
    displayName: "Team plan",
    customerType: "team",
    prices: { monthly: { USD: "20", interval: [1, "month"] } },
    includedItems: { seats: { quantity: 5, repeat: "never", expires: "when-purchase-expires" } },
  },
};

export async function paymentsProject(extra: Record<string, unknown> = {}): Promise<TestProject> {
  const project = await createTestProject(server);
  await configure(project, { ...PAYMENTS_CONFIG, ...extra });
  return project;
}

export async function buyer(project: TestProject): Promise<{ id: string; tokens: Tokens }> {
  const user = await createUser(project, { primary_email: `buyer-${crypto.randomUUID()}@example.com` });
  return { id: user.id, tokens: await signIn(project, user.id) };
}

export const createUrl = (project: TestProject, access: "client" | "server" | "admin", body: Record<string, unknown>, tokens?: Tokens) =>
  as(project, access, "/payments/purchases/create-purchase-url", { method: "POST", body, tokens });

/** A purchase URL's full code (the last path segment). */
export async function purchaseCode(project: TestProject, customerId: string, offerId: string, customerType = "user"): Promise<string> {
  const made = await createUrl(project, "server", { customer_type: customerType, customer_id: customerId, offer_id: offerId });
  expect(made.status, made.text).toBe(200);
  return decodeURIComponent(new URL(made.body.url).pathname.split("/").pop()!);
}

/** The public purchase routes, called as the purchase page calls them: no x-stack headers. */
export const publicCall = (path: string, body: unknown): Promise<ApiResponse> => api(server.url, `/payments/purchases/${path}`, { method: "POST", body });

export const completeTestMode = (fullCode: string, priceId: string, quantity = 1) =>
  publicCall("complete-test-mode-purchase", { full_code: fullCode, price_id: priceId, quantity });

export function expectPlain400(response: ApiResponse, text: string) {
  expect(response.status, response.text).toBe(400);
  expect(response.text).toBe(text);
}
