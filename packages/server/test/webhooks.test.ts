import { beforeAll, describe, expect, it } from "vitest";
import { Svix } from "svix";
import { answerForDialect, teamServerRead, userServerRead } from "@latchkey/protocol/schemas";
import { WEBHOOK_EXAMPLES } from "../src/services/webhook-examples.js";
import { isPrivateAddress } from "../src/services/webhook-targets.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestServer } from "./support/test-server.js";
import { useWebhookServer, waitUntil, type Receiver } from "./support/webhooks-fixture.js";

/**
 * Webhooks (issue 18), their management: the token for the Svix-compatible API, endpoints, messages, examples
 * and the dev page, driven with the official `svix` client. The events themselves: webhook-events.test.ts.
 */

const fixture = useWebhookServer();
const { svixFor, listen, as } = fixture;
let server: TestServer;
let receiver: Receiver;
beforeAll(() => ({ server, receiver } = fixture.parts()));

describe("POST /webhooks/svix-token", () => {
  it("gives admins a token for the Svix-compatible API, and refuses servers", async () => {
    const project = await createTestProject(server);
    const refused = await as(project, "server", "/webhooks/svix-token", "POST", {});
    expect(refused.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const svix = await svixFor(project);
    expect((await svix.endpoint.list(project.projectId)).data).toEqual([]);
  });
});

describe("the Svix-compatible endpoint API", () => {
  it("creates, lists, reads, updates and deletes endpoints with the official svix client", async () => {
    const project = await createTestProject(server);
    const svix = await svixFor(project);
    const created = await svix.endpoint.create(project.projectId, { url: "https://example.com/hooks", description: "Our app", filterTypes: ["user.created"], uid: "main" });
    expect(created).toMatchObject({ url: "https://example.com/hooks", description: "Our app", disabled: false, filterTypes: ["user.created"], uid: "main" });
    expect(created.id).toMatch(/^ep_[A-Za-z0-9]{27}$/);
    const listed = await svix.endpoint.list(project.projectId);
    expect(listed.data.map((e) => e.id)).toEqual([created.id]);
    expect(listed.done).toBe(true);
    // By id or by uid, as in Svix.
    expect((await svix.endpoint.get(project.projectId, "main")).id).toBe(created.id);
    const updated = await svix.endpoint.update(project.projectId, created.id, { url: "https://example.com/v2", disabled: true });
    expect(updated).toMatchObject({ url: "https://example.com/v2", disabled: true });
    const patched = await svix.endpoint.patch(project.projectId, created.id, { description: "Renamed" });
    expect(patched).toMatchObject({ url: "https://example.com/v2", description: "Renamed" });
    const secret = await svix.endpoint.getSecret(project.projectId, created.id);
    expect(secret.key).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await svix.endpoint.delete(project.projectId, created.id);
    expect((await svix.endpoint.list(project.projectId)).data).toEqual([]);
  });

  it("keeps a secret the caller chose, pages the list, and answers Svix's errors", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const svix = await svixFor(project);
    const chosen = "whsec_" + Buffer.from("0123456789abcdefghijklmnopqrstuv").toString("base64");
    const first = await svix.endpoint.create(project.projectId, { url: "https://example.com/1", secret: chosen });
    expect((await svix.endpoint.getSecret(project.projectId, first.id)).key).toBe(chosen);
    const second = await svix.endpoint.create(project.projectId, { url: "https://example.com/2" });
    const page = await svix.endpoint.list(project.projectId, { limit: 1 });
    expect(page.data.map((e) => e.id)).toEqual([first.id]);
    expect(page.done).toBe(false);
    const next = await svix.endpoint.list(project.projectId, { limit: 1, iterator: page.iterator! });
    expect(next.data.map((e) => e.id)).toEqual([second.id]);

    await expect(svix.endpoint.create(project.projectId, { url: "ftp://example.com" })).rejects.toMatchObject({ code: 422, body: { code: "validation" } });
    await expect(svix.endpoint.create(project.projectId, { url: "https://example.com", secret: "whsec_short" })).rejects.toMatchObject({ code: 422 });
    await expect(svix.endpoint.get(project.projectId, "ep_unknown")).rejects.toMatchObject({ code: 404, body: { code: "not_found" } });
    // A token is for its own project only.
    await expect(svix.endpoint.list(other.projectId)).rejects.toMatchObject({ code: 404 });
    const forged = new Svix("lkwh_e30.AAAA", { serverUrl: `${server.url}/api/v1/webhooks/svix` });
    await expect(forged.endpoint.list(project.projectId)).rejects.toMatchObject({ code: 401, body: { code: "authentication_failed" } });
  });

  // Issue 30: credentials in an endpoint's URL would be shown wherever the endpoint is listed or logged.
  it("refuses an endpoint URL with a username or password, on create, update and patch, with Svix's validation error", async () => {
    const project = await createTestProject(server);
    const svix = await svixFor(project);
    const msg = "must not contain a username or password (give the endpoint an Authorization header instead)";
    const refusal = { code: 422, body: { code: "validation", detail: [{ loc: ["body", "url"], msg, type: "custom" }] } };
    for (const url of ["https://user:secret@example.com/hooks", "https://user@example.com/hooks", "https://:secret@example.com/hooks"]) {
      await expect(svix.endpoint.create(project.projectId, { url }), url).rejects.toMatchObject(refusal);
    }
    const endpoint = await svix.endpoint.create(project.projectId, { url: "https://example.com/hooks" });
    await expect(svix.endpoint.update(project.projectId, endpoint.id, { url: "https://user:secret@example.com/hooks" })).rejects.toMatchObject(refusal);
    await expect(svix.endpoint.patch(project.projectId, endpoint.id, { url: "https://user:secret@example.com/hooks" })).rejects.toMatchObject(refusal);
    expect((await svix.endpoint.list(project.projectId)).data.map((e) => e.url)).toEqual(["https://example.com/hooks"]);
  });
});

describe("the Svix-compatible message API", () => {
  it("lists the project's messages newest first, by event type and page, and reads one", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    const svix = await svixFor(project);
    const user = await as(project, "server", "/users", "POST", { display_name: "Listed" });
    const team = await as(project, "server", "/teams", "POST", { display_name: "Listed team" });
    const all = await svix.message.list(project.projectId);
    expect(all.data.map((m) => m.eventType)).toEqual(["team.created", "user.created"]);
    expect(all.data[1]!.payload).toEqual({ type: "user.created", data: expect.objectContaining({ id: user.body.id, display_name: "Listed" }) });
    expect(all.done).toBe(true);
    const teams = await svix.message.list(project.projectId, { eventTypes: ["team.created"] });
    expect(teams.data.map((m) => m.payload.data.id)).toEqual([team.body.id]);
    const first = await svix.message.list(project.projectId, { limit: 1 });
    expect(first.done).toBe(false);
    const second = await svix.message.list(project.projectId, { limit: 1, iterator: first.iterator! });
    expect(second.data.map((m) => m.eventType)).toEqual(["user.created"]);
    // The id Svix names a message by is the webhook-id its deliveries carry.
    const [delivered] = await hook.waitFor(1);
    const read = await svix.message.get(project.projectId, delivered!.headers["webhook-id"] as string);
    expect(read.payload).toEqual(delivered!.verified);
    await expect(svix.message.get(project.projectId, "msg_unknown")).rejects.toMatchObject({ code: 404 });
  });
});

describe("messages the app sends and examples", () => {
  it("creates a message of the app's own type, delivered to the endpoints that take it, signed like any event", async () => {
    const project = await createTestProject(server);
    const all = await listen(project);
    const invoices = await listen(project, { filterTypes: ["invoice.paid"] });
    const users = await listen(project, { filterTypes: ["user.created"] });
    const svix = await svixFor(project);
    const sent = await svix.message.create(project.projectId, { eventType: "invoice.paid", payload: { type: "invoice.paid", data: { amount: 42 } }, eventId: "inv-1" });
    expect(sent).toMatchObject({ eventType: "invoice.paid", eventId: "inv-1", payload: { type: "invoice.paid", data: { amount: 42 } } });
    for (const hook of [all, invoices]) {
      const [delivery] = await hook.waitFor(1);
      expect(delivery!.headers["webhook-id"]).toBe(sent.id);
      expect(delivery!.verified).toEqual({ type: "invoice.paid", data: { amount: 42 } });
    }
    expect((await svix.message.get(project.projectId, sent.id)).payload).toEqual({ type: "invoice.paid", data: { amount: 42 } });
    // Settled once both deliveries are recorded; the endpoint filtering for another type got nothing.
    await waitUntil(async () => ((await svix.messageAttempt.listByMsg(project.projectId, sent.id)).data.length === 2 ? true : undefined));
    expect(users.received()).toHaveLength(0);

    await expect(svix.message.create(project.projectId, { eventType: "bad type!", payload: {} })).rejects.toMatchObject({ code: 422 });
    await expect(svix.message.create(project.projectId, { eventType: "x", payload: "not an object" as never })).rejects.toMatchObject({ code: 422 });
  });

  it("sends one endpoint an example of each event type, in the shapes real events carry", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project, { filterTypes: ["team.created"] });
    const other = await listen(project);
    const svix = await svixFor(project);
    const types = Object.keys(WEBHOOK_EXAMPLES);
    for (const eventType of types) await svix.endpoint.sendExample(project.projectId, hook.endpoint.id, { eventType });
    // To that endpoint only, whatever its filter.
    const deliveries = await hook.waitFor(types.length);
    expect(deliveries.map((d) => d.verified!.type).sort()).toEqual([...types].sort());
    expect(other.received()).toHaveLength(0);
    const data = (type: string) => deliveries.find((d) => d.verified!.type === type)!.verified!.data;
    // The example is a valid server read shape; an endpoint that asks for nothing else gets its 2.8.41 fields
    // (webhook-payload-versions.test.ts: the 2.8.108 ones on request).
    const exampleUser = userServerRead.parse(WEBHOOK_EXAMPLES["user.created"]);
    expect(data("user.created")).toEqual(answerForDialect(userServerRead, exampleUser, "2.8.41"));
    expect(teamServerRead.parse(data("team.updated"))).toEqual(data("team.updated"));
    expect(data("team_membership.created")).toEqual({ team_id: expect.any(String), user_id: expect.any(String) });

    await expect(svix.endpoint.sendExample(project.projectId, hook.endpoint.id, { eventType: "no.such.type" })).rejects.toMatchObject({ code: 404 });
    await expect(svix.endpoint.sendExample(project.projectId, "ep_unknown", { eventType: "user.created" })).rejects.toMatchObject({ code: 404 });
  });
});

describe("test events (2.8.108's sendTestWebhook)", () => {
  it("sends one signed test event to the endpoint now, and says how it went", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    const admin: any = stackSdk(server, project, "2.8.108").admin();
    expect(await admin.sendTestWebhook({ endpointId: hook.endpoint.id })).toEqual({ status: "ok", data: undefined });
    const [delivery] = hook.received();
    expect(delivery!.verified).toEqual({ type: "stack.test", data: { message: expect.stringContaining("test event") } });
    // Not a message of the project's: nothing is listed, queued or retried.
    expect((await (await svixFor(project)).message.list(project.projectId)).data).toHaveLength(0);

    receiver.plans.set(hook.path, [500]);
    const failed = await admin.sendTestWebhook({ endpointId: hook.endpoint.id });
    expect(failed).toEqual({ status: "error", error: { errorMessage: "The endpoint answered 500: try again" } });
    expect(hook.received()).toHaveLength(2);
    const unknown = await admin.sendTestWebhook({ endpointId: "ep_unknown" });
    expect(unknown.error.errorMessage).toBe("No webhook endpoint with id ep_unknown in this project.");
  });
});

describe("GET /dev/webhooks", () => {
  it("shows a project's deliveries in dev mode: event, endpoint, state, attempts and the last answer", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    receiver.plans.set(hook.path, [503]);
    await as(project, "server", "/teams", "POST", { display_name: "On the dev page" });
    await hook.waitFor(1);
    const html = await waitUntil(async () => {
      const text = await (await fetch(`${server.url}/dev/webhooks?project=${project.projectId}`)).text();
      return text.includes("1 attempt,") ? text : undefined;
    });
    expect(html).toContain("team.created");
    expect(html).toContain(receiver.url + hook.path);
    expect(html).toContain("last answer 503: try again");
    expect(html).toContain("next attempt");
    expect(html).toContain("On the dev page");
    const other = await (await fetch(`${server.url}/dev/webhooks?project=${(await createTestProject(server)).projectId}`)).text();
    expect(other).toContain("No deliveries yet");
  });
});

describe("webhook targets outside dev mode", () => {
  it("counts loopback, private, link-local and mapped addresses as private, and public ones not", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1"]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});
