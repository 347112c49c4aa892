import { createAdminApp, createServerApp } from "@latchkey/core";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useWebhookReceiver, verifyDelivery } from "../../core/test/support/webhook-receiver.js";
import { expectNoAxeViolations, horizontalOverflow, openSection, ownerWithProject, testKeys, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The project's Webhooks page (issue 20) against a real receiver: a node:http server on 127.0.0.1 (dev mode,
 * which the harness runs, lets webhooks reach private addresses) that keeps every request and answers 200, or
 * 500 on the paths told to fail. Deliveries are verified with the official `svix` package.
 */
const harness = useDashboardHarness();

const receiver = useWebhookReceiver();
const { deliveriesTo, failingPaths, received } = receiver;

/** Server and admin apps of the owner's project, with keys made for the test, to check what reached the server. */
async function apiApps(projectId: string) {
  const keys = await testKeys(harness.server, projectId, "webhooks e2e", ["secretServerKey", "superSecretAdminKey"]);
  const common = {
    projectId,
    baseUrl: harness.server.url,
    tokenStore: "memory" as const,
  };
  return {
    server: createServerApp({
      ...common,
      secretServerKey: keys.secret_server_key!,
    }),
    admin: createAdminApp({
      ...common,
      superSecretAdminKey: keys.super_secret_admin_key!,
    }),
  };
}

/** Adds an endpoint through the page's form; ends on the new endpoint's page. */
async function addEndpoint(page: Page, url: string, options: { description?: string; eventTypes?: string[] } = {}) {
  await page.getByLabel("Endpoint URL").fill(url);
  if (options.description) await page.getByLabel("Description").fill(options.description);
  for (const type of options.eventTypes ?? []) await page.getByRole("checkbox", { name: type, exact: true }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("heading", { level: 2, name: url }).waitFor();
}

async function sendTestEvent(page: Page, eventType: string) {
  await page.getByLabel("Event type").selectOption(eventType);
  await page.getByRole("button", { name: "Send test event" }).click();
  await page.getByText(`A test ${eventType} event is on its way`).waitFor();
}

/** The delivery of `eventType` in the Deliveries list (the newest one first). */
const delivery = (page: Page, eventType: string): Locator =>
  page
    .getByRole("list", { name: "Deliveries" })
    .getByRole("listitem")
    .filter({
      has: page.locator("summary").getByText(eventType, { exact: true }),
    })
    .first();

/** Opens a delivery (and its payload), once it shows `status`. */
async function openDelivery(item: Locator, status: string) {
  await item.locator("summary").getByText(status, { exact: true }).waitFor();
  await item.locator("summary").first().click();
  await item.getByText("Payload", { exact: true }).click();
}

describe("the Webhooks page", () => {
  it("adds an endpoint, sends it a signed test event and shows the delivery; real events, secret rotation and disabling too", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const api = await apiApps(projectId);
    await openSection(page, "Webhooks");
    await page.getByText("No endpoints yet.").waitFor();

    // The form says what is wrong before anything is sent.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("Enter the URL that should receive the events.").waitFor();
    await page.getByLabel("Endpoint URL").fill("ftp://example.com/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("Enter a full http:// or https:// URL").waitFor();
    expect(await api.admin.listWebhookEndpoints()).toEqual([]);

    const url = `${receiver.url}/hooks/app`;
    await addEndpoint(page, url, {
      description: "Our app",
      eventTypes: ["user.created"],
    });
    const [endpoint] = await api.admin.listWebhookEndpoints();
    expect(endpoint).toMatchObject({
      url,
      description: "Our app",
      filterTypes: ["user.created"],
      disabled: false,
    });
    expect(new URL(page.url()).searchParams.get("endpoint")).toBe(endpoint!.id);

    // The secret is hidden until revealed, and is the endpoint's.
    await page.getByText("The secret is hidden.").waitFor();
    expect(await page.getByLabel("Secret value").count()).toBe(0);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const secret = await page.getByLabel("Secret value").inputValue();
    expect(secret).toBe(await api.admin.getWebhookEndpointSecret(endpoint!.id));

    // A test event of the chosen type: the receiver gets it signed with that secret, and the page shows it delivered.
    await page.getByText("No deliveries yet.").waitFor();
    await sendTestEvent(page, "team.created");
    const [example] = await deliveriesTo("/hooks/app", 1);
    expect(verifyDelivery(example!, secret)).toMatchObject({
      type: "team.created",
      data: { display_name: expect.any(String) },
    });
    const test = delivery(page, "team.created");
    await openDelivery(test, "Succeeded");
    await test
      .getByLabel(/^Payload of msg_/)
      .getByText('"type": "team.created"')
      .waitFor();
    const attempts = test.getByRole("region", { name: /^Attempts of / });
    await attempts.getByRole("cell", { name: "200", exact: true }).waitFor();
    await attempts.getByRole("cell", { name: "ok", exact: true }).waitFor();
    expect(await test.getByRole("button", { name: "Resend" }).count()).toBe(0);

    // A real event of the project.
    const user = await api.server.createUser({
      displayName: "Hooked on webhooks",
    });
    const [, real] = await deliveriesTo("/hooks/app", 2);
    expect(verifyDelivery(real!, secret)).toMatchObject({
      type: "user.created",
      data: { id: user.id, display_name: "Hooked on webhooks" },
    });
    await page.getByRole("button", { name: "Refresh" }).click();
    const created = delivery(page, "user.created");
    await openDelivery(created, "Succeeded");
    await created.getByText(`"id": "${user.id}"`).waitFor();

    // Rotating asks first, then shows the new secret, which is the server's.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog", {
      name: "Rotate the signing secret?",
    });
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByText("A new secret was made").waitFor();
    await expect.poll(() => page.getByLabel("Secret value").inputValue()).not.toBe(secret);
    expect(await page.getByLabel("Secret value").inputValue()).toBe(await api.admin.getWebhookEndpointSecret(endpoint!.id));

    // Disabled, it stays so after a reload; and it can be enabled again.
    await page.getByRole("button", { name: "Disable endpoint" }).click();
    await page.getByRole("button", { name: "Enable endpoint" }).waitFor();
    expect((await api.admin.getWebhookEndpoint(endpoint!.id)).disabled).toBe(true);
    await page.reload();
    await page.getByText("It gets no events until it is enabled again.").waitFor();
    await page.getByRole("button", { name: "Enable endpoint" }).click();
    await page.getByRole("button", { name: "Disable endpoint" }).waitFor();
    expect((await api.admin.getWebhookEndpoint(endpoint!.id)).disabled).toBe(false);

    // The list shows the endpoint with its filter and state.
    await page.getByRole("link", { name: "← All endpoints" }).click();
    const row = page.getByRole("table", { name: "Webhook endpoints" }).getByRole("row").filter({ hasText: url });
    await row.getByRole("cell", { name: "Our app" }).waitFor();
    await row.getByRole("cell", { name: "user.created" }).waitFor();
    await row.getByText("Enabled").waitFor();

    // Edited: a bad URL is refused before sending; then a new description and every event type.
    await row.getByRole("link", { name: url }).click();
    await page.getByRole("button", { name: "Edit endpoint" }).click();
    const form = page.getByRole("form", { name: "Edit the endpoint" });
    await form.getByLabel("Endpoint URL").fill("example.com/hooks");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.getByText("Enter a full http:// or https:// URL").waitFor();
    await form.getByLabel("Endpoint URL").fill(url);
    await form.getByLabel("Description").fill("Our app, every event");
    await form.getByRole("checkbox", { name: "user.created", exact: true }).uncheck();
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.waitFor({ state: "detached" });
    await page.getByText("All events").waitFor();
    expect(await api.admin.getWebhookEndpoint(endpoint!.id)).toMatchObject({ url, description: "Our app, every event", filterTypes: null });
  }, 120_000);

  it("adds an endpoint for the 2.8.108 SDK, whose events carry that version's user shape, and edits it back to the default", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const api = await apiApps(projectId);
    await openSection(page, "Webhooks");
    const url = `${receiver.url}/hooks/newer-sdk`;
    expect(await page.getByLabel("Payload format").inputValue()).toBe("2.8.41");
    await page.getByLabel("Payload format").selectOption("2.8.108");
    await addEndpoint(page, url, { eventTypes: ["user.created"] });
    await page.getByText("Stack SDK 2.8.108", { exact: true }).waitFor();
    const [endpoint] = await api.admin.listWebhookEndpoints();
    expect(endpoint).toMatchObject({ url, payloadVersion: "2.8.108" });
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const secret = await page.getByLabel("Secret value").inputValue();

    await api.server.createUser({ displayName: "On the newer SDK" });
    const [newer] = await deliveriesTo("/hooks/newer-sdk", 1);
    expect(verifyDelivery(newer!, secret)).toMatchObject({ type: "user.created", data: { display_name: "On the newer SDK", is_restricted: false, country_code: null } });

    await page.getByRole("button", { name: "Edit endpoint" }).click();
    const form = page.getByRole("form", { name: "Edit the endpoint" });
    expect(await form.getByLabel("Payload format").inputValue()).toBe("2.8.108");
    await form.getByLabel("Payload format").selectOption("2.8.41");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.waitFor({ state: "detached" });
    await page.getByText("Stack SDK 2.8.41 (default)", { exact: true }).waitFor();
    expect((await api.admin.getWebhookEndpoint(endpoint!.id)).payloadVersion).toBe("2.8.41");
    await api.server.createUser({ displayName: "Back to the default" });
    const [, older] = await deliveriesTo("/hooks/newer-sdk", 2);
    const event = verifyDelivery(older!, secret) as { data: Record<string, unknown> };
    expect(event.data).toMatchObject({ display_name: "Back to the default" });
    expect(event.data).not.toHaveProperty("is_restricted");
  }, 120_000);

  it("shows a failing endpoint's failed attempt, resends it once the receiver works, and deletes the endpoint after confirmation", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const api = await apiApps(projectId);
    await openSection(page, "Webhooks");
    failingPaths.add("/hooks/failing");
    const url = `${receiver.url}/hooks/failing`;
    await addEndpoint(page, url);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const secret = await page.getByLabel("Secret value").inputValue();

    await sendTestEvent(page, "user.created");
    await deliveriesTo("/hooks/failing", 1);
    const failing = delivery(page, "user.created");
    await openDelivery(failing, "Pending");
    const attempts = failing.getByRole("region", { name: /^Attempts of / });
    await attempts.getByRole("cell", { name: "500", exact: true }).first().waitFor();
    await attempts.getByRole("cell", { name: "receiver is down" }).first().waitFor();
    await attempts.getByText("Failed").first().waitFor();
    await failing.getByText(/next try at/).waitFor();

    // Fixed, and sent again from the page: it gets through.
    failingPaths.delete("/hooks/failing");
    const before = received.filter((r) => r.path === "/hooks/failing").length;
    await failing.getByRole("button", { name: "Resend" }).click();
    const resent = (await deliveriesTo("/hooks/failing", before + 1)).at(-1)!;
    expect(verifyDelivery(resent, secret)).toMatchObject({ type: "user.created" });
    await failing.locator("summary").getByText("Succeeded", { exact: true }).waitFor();
    await attempts.getByRole("cell", { name: "200", exact: true }).waitFor();
    expect(await failing.getByRole("button", { name: "Resend" }).count()).toBe(0);

    // Deleting asks first; cancelled, nothing happens.
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await api.admin.listWebhookEndpoints()).toHaveLength(1);
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await dialog.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("No endpoints yet.").waitFor();
    expect(await api.admin.listWebhookEndpoints()).toEqual([]);
  }, 120_000);

  /** An owner on an endpoint's page with a delivered test event opened (payload and attempts showing). */
  async function endpointWithDelivery(options: Parameters<typeof ownerWithProject>[1], url: string) {
    const { page } = await ownerWithProject(harness, options);
    await openSection(page, "Webhooks");
    await addEndpoint(page, url, {
      description: "Receives every event of the project, for the billing and the audit log",
      eventTypes: ["user.created", "team_membership.deleted"],
    });
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await page.getByLabel("Secret value").waitFor();
    await sendTestEvent(page, "team_membership.deleted");
    const item = delivery(page, "team_membership.deleted");
    await openDelivery(item, "Succeeded");
    await item
      .getByRole("region", { name: /^Attempts of / })
      .getByRole("cell", { name: "200", exact: true })
      .waitFor();
    return page;
  }

  for (const colorScheme of ["light", "dark"] as const) {
    it(`passes axe in ${colorScheme} mode on the endpoint list, an endpoint with its deliveries, and its dialogs`, async () => {
      const page = await endpointWithDelivery({ colorScheme }, `${receiver.url}/hooks/axe-${colorScheme}`);
      await expectNoAxeViolations(page);
      await page.getByRole("button", { name: "Delete endpoint" }).click();
      await page.getByRole("dialog", { name: "Delete this endpoint?" }).waitFor();
      await expectNoAxeViolations(page);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("link", { name: "← All endpoints" }).click();
      await page.getByRole("table", { name: "Webhook endpoints" }).waitFor();
      await page.getByRole("checkbox", { name: "user.created", exact: true }).waitFor();
      await expectNoAxeViolations(page);
    }, 120_000);
  }

  it("fits a 360 px wide screen with a long URL, its deliveries and attempts", async () => {
    const url = `${receiver.url}/hooks/a-rather-long-path/that-goes-on/and-on-for-a-phone-screen?with=a&query=string`;
    const page = await endpointWithDelivery({ viewport: { width: 360, height: 740 } }, url);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.getByRole("link", { name: "← All endpoints" }).click();
    await page.getByRole("table", { name: "Webhook endpoints" }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
  }, 120_000);
});
