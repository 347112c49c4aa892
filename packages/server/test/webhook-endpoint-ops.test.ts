import { beforeAll, describe, expect, it } from "vitest";
import { createTestProject, type TestServer } from "./support/test-server.js";
import { useWebhookServer, waitUntil, type Receiver } from "./support/webhooks-fixture.js";

/**
 * Webhooks (issue 18): the Svix-compatible API's event types, endpoint stats, recover, replay-missing and endpoint
 * headers, driven with the official `svix` client against Latchkey.
 */

const fixture = useWebhookServer();
const { svixFor, listen, as } = fixture;
let server: TestServer;
let receiver: Receiver;
beforeAll(() => ({ server, receiver } = fixture.parts()));

const anHourAgo = () => new Date(Date.now() - 3_600_000);

describe("event types", () => {
  it("lists the 12 event types Latchkey sends, with descriptions, in pages; reads one", async () => {
    const project = await createTestProject(server);
    const svix = await svixFor(project);
    const all = await svix.eventType.list();
    expect(all.done).toBe(true);
    expect(all.data.map((t) => t.name)).toEqual([
      "project_permission.created",
      "project_permission.deleted",
      "team.created",
      "team.deleted",
      "team.updated",
      "team_membership.created",
      "team_membership.deleted",
      "team_permission.created",
      "team_permission.deleted",
      "user.created",
      "user.deleted",
      "user.updated",
    ]);
    expect(all.data.find((t) => t.name === "team_membership.created")).toMatchObject({ description: "This event is triggered when a user is added to a team.", archived: false, deprecated: false });
    const first = await svix.eventType.list({ limit: 5 });
    const rest = await svix.eventType.list({ limit: 10, iterator: first.iterator! });
    expect(first.done).toBe(false);
    expect([...first.data, ...rest.data].map((t) => t.name)).toEqual(all.data.map((t) => t.name));
    expect(rest.done).toBe(true);
    expect((await svix.eventType.get("user.updated")).description).toBe("This event is triggered when a user is updated.");
    await expect(svix.eventType.get("invoice.paid")).rejects.toMatchObject({ code: 404, body: { code: "not_found" } });
  });
});

describe("endpoint headers", () => {
  it("sends the endpoint's own headers with each delivery; hides credential values when read; refuses the signing headers", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project, { filterTypes: ["team.created"] });
    const svix = await svixFor(project);
    await svix.endpoint.updateHeaders(project.projectId, hook.endpoint.id, { headers: { Authorization: "Bearer receiver-key", "X-Tenant": "acme" } });
    expect(await svix.endpoint.getHeaders(project.projectId, hook.endpoint.id)).toEqual({ headers: { "x-tenant": "acme" }, sensitive: ["authorization"] });
    await as(project, "server", "/teams", "POST", { display_name: "With headers" });
    const [delivery] = await hook.waitFor(1);
    expect(delivery!.verified!.type).toBe("team.created");
    expect(delivery!.headers).toMatchObject({ authorization: "Bearer receiver-key", "x-tenant": "acme" });

    await svix.endpoint.patchHeaders(project.projectId, hook.endpoint.id, { headers: { "X-Region": "eu" }, deleteHeaders: ["authorization"] });
    expect(await svix.endpoint.getHeaders(project.projectId, hook.endpoint.id)).toEqual({ headers: { "x-tenant": "acme", "x-region": "eu" }, sensitive: [] });

    for (const name of ["webhook-signature", "svix-id", "Content-Type", "bad name"]) {
      await expect(svix.endpoint.updateHeaders(project.projectId, hook.endpoint.id, { headers: { [name]: "x" } }), name).rejects.toMatchObject({ code: 422, body: { code: "validation" } });
    }
    await expect(svix.endpoint.updateHeaders(project.projectId, hook.endpoint.id, { headers: { "X-Line": "a\r\nInjected: yes" } })).rejects.toMatchObject({ code: 422 });
    await expect(svix.endpoint.getHeaders(project.projectId, "ep_unknown")).rejects.toMatchObject({ code: 404 });
  });
});

describe("endpoint stats and recover", () => {
  it("counts the endpoint's messages by state, and sends its failed ones again on recover", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project, { filterTypes: ["team.created"] });
    const svix = await svixFor(project);
    receiver.plans.set(hook.path, [500]);
    await as(project, "server", "/teams", "POST", { display_name: "Fails" });
    const [refused] = await hook.waitFor(1);
    const failedId = refused!.headers["webhook-id"] as string;
    // As if the last retry had failed (the schedule runs for days): the delivery has failed.
    await waitUntil(async () => ((await server.db.selectFrom("webhook_attempts").select("id").where("message_id", "=", failedId).executeTakeFirst()) ? true : undefined));
    await server.db
      .updateTable("webhook_deliveries")
      .set({ status: "failed", attempts: 8, next_attempt_at: null, claim_token: null })
      .where("message_id", "=", failedId)
      .where("endpoint_id", "=", hook.endpoint.id)
      .execute();
    await as(project, "server", "/teams", "POST", { display_name: "Succeeds" });
    await waitUntil(async () => ((await svix.endpoint.getStats(project.projectId, hook.endpoint.id)).success === 1 ? true : undefined));
    expect(await svix.endpoint.getStats(project.projectId, hook.endpoint.id)).toEqual({ success: 1, fail: 1, pending: 0, sending: 0, canceled: 0 });
    expect(await svix.endpoint.getStats(project.projectId, hook.endpoint.id, { since: new Date(Date.now() + 60_000) })).toEqual({ success: 0, fail: 0, pending: 0, sending: 0, canceled: 0 });

    const before = hook.received().length;
    const task = await svix.endpoint.recover(project.projectId, hook.endpoint.id, { since: anHourAgo() });
    expect(task).toMatchObject({ status: "finished", task: "endpoint.recover" });
    const again = await waitUntil(async () => hook.received().find((d, index) => index >= before && d.headers["webhook-id"] === failedId));
    expect(again.verified).toEqual(refused!.verified);
    await waitUntil(async () => ((await svix.endpoint.getStats(project.projectId, hook.endpoint.id)).success === 2 ? true : undefined));
    expect(await svix.endpoint.getStats(project.projectId, hook.endpoint.id)).toMatchObject({ success: 2, fail: 0 });

    await expect(svix.endpoint.recover(project.projectId, hook.endpoint.id, { since: "yesterday" as never })).rejects.toMatchObject({ code: 422 });
    await expect(svix.endpoint.recover(project.projectId, "ep_unknown", { since: anHourAgo() })).rejects.toMatchObject({ code: 404 });
  }, 40_000);
});

describe("replay-missing", () => {
  it("sends an endpoint the messages written while it was disabled, once", async () => {
    const project = await createTestProject(server);
    const other = await listen(project);
    const hook = await listen(project, { disabled: true, filterTypes: ["user.created"] });
    const svix = await svixFor(project);
    const user = await as(project, "server", "/users", "POST", { display_name: "Missed" });
    await as(project, "server", "/teams", "POST", { display_name: "Filtered out" });
    await other.waitFor(2);
    await svix.endpoint.patch(project.projectId, hook.endpoint.id, { disabled: false });
    const task = await svix.endpoint.replayMissing(project.projectId, hook.endpoint.id, { since: anHourAgo() });
    expect(task).toMatchObject({ status: "finished", task: "endpoint.replay" });
    const [replayed] = await hook.waitFor(1);
    expect(replayed!.verified).toEqual({ type: "user.created", data: expect.objectContaining({ id: user.body.id, display_name: "Missed" }) });
    // Nothing is missing any more: a second replay sends nothing.
    await svix.endpoint.replayMissing(project.projectId, hook.endpoint.id, { since: anHourAgo() });
    await waitUntil(async () => ((await svix.endpoint.getStats(project.projectId, hook.endpoint.id)).success === 1 ? true : undefined));
    expect(await svix.endpoint.getStats(project.projectId, hook.endpoint.id)).toMatchObject({ success: 1, pending: 0, sending: 0 });
    expect(hook.received()).toHaveLength(1);
  });
});

describe("attempted messages and destinations", () => {
  it("lists the messages an endpoint was sent and the endpoints a message was sent to, with each delivery's state; reads one attempt", async () => {
    const project = await createTestProject(server);
    const failing = await listen(project, { filterTypes: ["team.created"] });
    const working = await listen(project, { filterTypes: ["team.created"] });
    const svix = await svixFor(project);
    receiver.plans.set(failing.path, [500, 500]);
    await as(project, "server", "/teams", "POST", { display_name: "Attempted" });
    const [delivered] = await working.waitFor(1);
    const messageId = delivered!.headers["webhook-id"] as string;
    // Two refusals recorded (the second 5 s after the first): the next attempt is minutes away, so the state holds.
    await waitUntil(async () => ((await svix.messageAttempt.listByEndpoint(project.projectId, failing.endpoint.id)).data.length === 2 ? true : undefined));
    await waitUntil(async () => ((await svix.messageAttempt.listByEndpoint(project.projectId, working.endpoint.id)).data.length === 1 ? true : undefined));

    const destinations = await svix.messageAttempt.listAttemptedDestinations(project.projectId, messageId);
    const byId = new Map(destinations.data.map((d) => [d.id, d]));
    expect(destinations.done).toBe(true);
    expect(byId.get(working.endpoint.id)).toMatchObject({ url: receiver.url + working.path, status: 0, statusText: "success", nextAttempt: null });
    expect(byId.get(failing.endpoint.id)).toMatchObject({ url: receiver.url + failing.path, status: 1, statusText: "pending" });
    expect(byId.get(failing.endpoint.id)!.nextAttempt!.getTime()).toBeGreaterThan(Date.now() + 60_000);

    const sent = await svix.messageAttempt.listAttemptedMessages(project.projectId, failing.endpoint.id);
    expect(sent.data.map((m) => [m.id, m.eventType, m.status, m.statusText])).toEqual([[messageId, "team.created", 1, "pending"]]);
    expect(sent.data[0]!.payload).toEqual(delivered!.verified);
    expect((await svix.messageAttempt.listAttemptedMessages(project.projectId, failing.endpoint.id, { status: 0 })).data).toEqual([]);

    const [latest] = (await svix.messageAttempt.listByMsg(project.projectId, messageId, { endpointId: failing.endpoint.id })).data;
    expect(await svix.messageAttempt.get(project.projectId, messageId, latest!.id)).toMatchObject({ id: latest!.id, responseStatusCode: 500, endpointId: failing.endpoint.id });
    await expect(svix.messageAttempt.get(project.projectId, messageId, crypto.randomUUID())).rejects.toMatchObject({ code: 404 });
    await expect(svix.messageAttempt.listAttemptedDestinations(project.projectId, "msg_unknown")).rejects.toMatchObject({ code: 404 });
    await expect(svix.messageAttempt.listAttemptedMessages(project.projectId, "ep_unknown")).rejects.toMatchObject({ code: 404 });
  }, 40_000);
});
