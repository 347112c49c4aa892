import { beforeAll, describe, expect, it } from "vitest";
import { webhookEvents as events41 } from "@stackframe/stack-shared/dist/interface/webhooks";
import { webhookEvents as events108 } from "@stackframe/stack-shared-2.8.108/dist/interface/webhooks";
import { api } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject, type TestServer } from "./support/test-server.js";
import { useWebhookServer, waitUntil, type Delivery } from "./support/webhooks-fixture.js";

/**
 * Webhook payloads in the protocol version each endpoint asks for (issue 29 §4): the reference's 2.8.41 shapes by
 * default, the 2.8.108 ones for an endpoint whose metadata says `latchkey_payload_version: "2.8.108"`. Each delivered
 * event is compared with the event schemas of the two published `@stackframe/stack-shared` versions.
 */

const fixture = useWebhookServer();
const { listen, as } = fixture;
let server: TestServer;
beforeAll(() => ({ server } = fixture.parts()));

const NEWER = { latchkey_payload_version: "2.8.108" };
/** The user fields 2.8.108 added, which the reference's (2.8.41) webhooks do not carry. */
const ONLY_2_8_108 = ["is_restricted", "restricted_reason", "restricted_by_admin", "restricted_by_admin_reason", "restricted_by_admin_private_details", "country_code", "risk_scores"];

interface YupSchema {
  fields?: Record<string, YupSchema>;
  validate(value: unknown, options?: { strict?: boolean }): Promise<unknown>;
}
type EventList = readonly { type: string; schema: unknown }[];

/**
 * The event's data has exactly the fields of the version's event schema, at every depth (the selected team
 * inside a user too), and the schema takes it.
 */
async function expectVersionShape(events: EventList, event: { type: string; data: unknown }): Promise<void> {
  const schema = events.find((e) => e.type === event.type)?.schema as YupSchema | undefined;
  expect(schema, `a schema for ${event.type}`).toBeDefined();
  await schema!.validate(event.data, { strict: true });
  const sameFields = (fields: Record<string, YupSchema>, value: Record<string, unknown>, path: string) => {
    expect(Object.keys(value).sort(), path).toEqual(Object.keys(fields).sort());
    for (const [key, field] of Object.entries(fields)) {
      const inner = value[key];
      if (field.fields && inner !== null && typeof inner === "object" && !Array.isArray(inner)) sameFields(field.fields, inner as Record<string, unknown>, `${path}.${key}`);
    }
  };
  if (schema!.fields) sameFields(schema!.fields, event.data as Record<string, unknown>, event.type);
}

const hexclaveHeaders = (project: TestProject) => Object.fromEntries(Object.entries(project.headers("server")).map(([name, value]) => [name.replace(/^x-stack-/, "x-hexclave-"), value]));

async function svixToken(project: TestProject): Promise<string> {
  const response = await as(project, "admin", "/webhooks/svix-token", "POST", {});
  expect(response.status, response.text).toBe(201);
  return response.body.token;
}

/** A raw request to the Svix-compatible API, so the answer is seen as sent (the `svix` client would rebuild it). */
async function svixRaw(token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/v1/webhooks/svix/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json() };
}

const byType = (deliveries: Delivery[], type: string) => deliveries.map((d) => d.verified!).filter((e) => e.type === type);

describe("webhook payloads: the 2.8.41 shapes by default", () => {
  it("sends every event type in the reference's (2.8.41) shapes: a user without the fields 2.8.108 added", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    // Signed up through the published 2.8.41 SDK, as an app does.
    const email = `person-${crypto.randomUUID()}@example.com`;
    const signedUp = await stackSdk(server, project).client().signUpWithCredential({ email, password: "correct horse", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });
    expect(signedUp.status).toBe("ok");
    const userId = (await waitUntil(async () => byType(hook.received(), "user.created")[0]))!.data.id as string;
    expect((await as(project, "server", `/users/${userId}`, "PATCH", { display_name: "Ada" })).status).toBe(200);
    const team = await as(project, "server", "/teams", "POST", { display_name: "Acme", creator_user_id: userId });
    expect(team.status).toBe(201);
    expect((await as(project, "server", `/users/${userId}`, "PATCH", { selected_team_id: team.body.id })).status).toBe(200);
    expect((await as(project, "server", `/teams/${team.body.id}`, "PATCH", { display_name: "Acme Inc." })).status).toBe(200);
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${userId}/$update_team`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${userId}/$update_team`, "DELETE")).status).toBe(200);
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${userId}`, "DELETE")).status).toBe(200);
    expect((await as(project, "server", `/teams/${team.body.id}`, "DELETE")).status).toBe(200);
    expect((await as(project, "server", `/users/${userId}`, "DELETE")).status).toBe(200);

    const types = ["user.created", "user.updated", "user.deleted", "team.created", "team.updated", "team.deleted", "team_membership.created", "team_membership.deleted", "team_permission.created", "team_permission.deleted"];
    const all = await waitUntil(async () => {
      const events = hook.received().map((d) => d.verified!);
      return types.every((type) => events.some((e) => e.type === type && (type !== "user.updated" || e.data.selected_team !== null))) ? events : undefined;
    });
    for (const event of all.filter((e) => events41.some((known) => known.type === e.type))) await expectVersionShape(events41, event);
    // The user with a selected team: the team inside has the 2.8.41 team shape too (checked above), and no 2.8.108 field is anywhere.
    for (const event of [...byType(hook.received(), "user.created"), ...byType(hook.received(), "user.updated")]) {
      for (const field of ONLY_2_8_108) expect(event.data, `${event.type} ${field}`).not.toHaveProperty(field);
    }
    // As a 2.8.41 app reads the user (x-stack-* headers), less the activity time that moves on.
    const { last_active_at_millis: _moved, ...read41 } = (await as(project, "server", "/users", "POST", { display_name: "Read back" })).body;
    const created = await waitUntil(async () => byType(hook.received(), "user.created").find((e) => e.data.id === read41.id));
    expect(created.data).toEqual({ ...read41, last_active_at_millis: expect.any(Number) });
  });
});

describe("webhook payloads: an endpoint that asks for 2.8.108", () => {
  it("gets the 2.8.108 shapes while the other endpoints and the message itself keep the 2.8.41 ones; the setting can change", async () => {
    const project = await createTestProject(server);
    const older = await listen(project, { filterTypes: ["user.created", "user.updated", "team.created"] });
    const newer = await listen(project, { filterTypes: ["user.created", "user.updated", "team.created"], metadata: NEWER });
    expect(newer.endpoint.metadata).toEqual(NEWER);
    const user = await as(project, "server", "/users", "POST", { primary_email: `n-${crypto.randomUUID()}@example.com`, display_name: "Newer" });
    expect(user.status).toBe(201);
    const [toOlder] = await older.waitFor(1);
    const [toNewer] = await newer.waitFor(1);
    // One message, two deliveries.
    expect(toNewer!.headers["webhook-id"]).toBe(toOlder!.headers["webhook-id"]);
    await expectVersionShape(events41, toOlder!.verified!);
    await expectVersionShape(events108, toNewer!.verified!);
    const read108 = await api(server.url, `/users/${user.body.id}`, { headers: hexclaveHeaders(project) });
    const { last_active_at_millis: _moved, ...user108 } = read108.body;
    expect(toNewer!.verified!.data).toEqual({ ...user108, last_active_at_millis: expect.any(Number) });
    expect(toNewer!.verified!.data).toMatchObject({ is_restricted: false, restricted_reason: null, country_code: null, risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } } });

    // The Svix-compatible API shows the message as the reference has it; the endpoint's own list, what it was sent.
    const token = await svixToken(project);
    const messageId = toOlder!.headers["webhook-id"] as string;
    const message = await svixRaw(token, `/app/${project.projectId}/msg/${messageId}?with_content=true`);
    expect(message.body.payload).toEqual(toOlder!.verified);
    const sentToNewer = await svixRaw(token, `/app/${project.projectId}/endpoint/${newer.endpoint.id}/msg?with_content=true`);
    expect(sentToNewer.body.data.map((m: { payload: unknown }) => m.payload)).toEqual([toNewer!.verified]);
    const sentToOlder = await svixRaw(token, `/app/${project.projectId}/endpoint/${older.endpoint.id}/msg?with_content=true`);
    expect(sentToOlder.body.data.map((m: { payload: unknown }) => m.payload)).toEqual([toOlder!.verified]);
    // Non-user events are the same in both versions.
    const team = await as(project, "server", "/teams", "POST", { display_name: "Same in both" });
    const teamToOlder = await waitUntil(async () => byType(older.received(), "team.created")[0]);
    const teamToNewer = await waitUntil(async () => byType(newer.received(), "team.created")[0]);
    expect(teamToNewer).toEqual(teamToOlder);
    expect(teamToOlder.data.id).toBe(team.body.id);

    // Back to the default: the next event comes in the 2.8.41 shapes; the metadata reads back as written.
    const patched = await svixRaw(token, `/app/${project.projectId}/endpoint/${newer.endpoint.id}`, { method: "PATCH", body: { metadata: { team: "billing" } } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ team: "billing" });
    expect((await as(project, "server", `/users/${user.body.id}`, "PATCH", { display_name: "Older again" })).status).toBe(200);
    const updated = await waitUntil(async () => byType(newer.received(), "user.updated")[0]);
    await expectVersionShape(events41, updated);
    expect(updated.data.display_name).toBe("Older again");
  });

  it("sends examples (the dashboard's test event) in the endpoint's version", async () => {
    const project = await createTestProject(server);
    const older = await listen(project);
    const newer = await listen(project, { metadata: NEWER });
    const token = await svixToken(project);
    for (const hook of [older, newer]) {
      const sent = await svixRaw(token, `/app/${project.projectId}/endpoint/${hook.endpoint.id}/send-example`, { method: "POST", body: { eventType: "user.created" } });
      expect(sent.status).toBe(202);
      // The answer is the message, as the reference's Svix server keeps it.
      expect(Object.keys(sent.body.payload.data)).not.toContain("is_restricted");
    }
    await expectVersionShape(events41, (await older.waitFor(1))[0]!.verified!);
    await expectVersionShape(events108, (await newer.waitFor(1))[0]!.verified!);
  });

  it("refuses a payload version it does not know, with Svix's validation error", async () => {
    const project = await createTestProject(server);
    const token = await svixToken(project);
    const refusal = {
      code: "validation",
      detail: [{ loc: ["body", "metadata", "latchkey_payload_version"], msg: "must be 2.8.41 or 2.8.108", type: "custom" }],
    };
    const created = await svixRaw(token, `/app/${project.projectId}/endpoint`, { method: "POST", body: { url: "https://example.com/hook", metadata: { latchkey_payload_version: "3" } } });
    expect(created).toEqual({ status: 422, body: refusal });
    const ok = await svixRaw(token, `/app/${project.projectId}/endpoint`, { method: "POST", body: { url: "https://example.com/hook", metadata: { latchkey_payload_version: "2.8.41" } } });
    expect(ok.status).toBe(201);
    const patched = await svixRaw(token, `/app/${project.projectId}/endpoint/${ok.body.id}`, { method: "PATCH", body: { metadata: { latchkey_payload_version: "2.8.108 " } } });
    expect(patched).toEqual({ status: 422, body: refusal });
  });
});
