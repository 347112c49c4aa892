import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Svix } from "svix";
import { readEnv } from "../src/env.js";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";
import { waitUntil } from "./support/webhooks-fixture.js";

/**
 * Webhooks handed to a real Svix server (issue 18; LATCHKEY_SVIX_URL + LATCHKEY_SVIX_API_KEY). There is no Svix
 * server here, so a small HTTP server stands in for it (a test double of an outside service): it records every
 * request and answers as Svix does. What Latchkey sends it is compared with what the official `svix` client sends
 * for the same call.
 */

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

const API_KEY = "testsk_handoff";
let svixDouble: Server;
let svixUrl: string;
const recorded: Recorded[] = [];
/** Statuses to answer message creations with in turn (then 202). */
const messagePlan: number[] = [];
let portalDown = false;
let server: TestServer;

beforeAll(async () => {
  svixDouble = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      const body = text ? JSON.parse(text) : undefined;
      recorded.push({ method: request.method!, path: request.url!, headers: request.headers, body });
      const json = (status: number, value: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (request.method === "POST" && /^\/api\/v1\/app\/[^/]+\/msg\?/.test(request.url!)) {
        const status = messagePlan.shift() ?? 202;
        if (status !== 202) return json(status, { code: "internal", detail: "try again" });
        return json(202, { id: `msg_svix${recorded.length}`, eventType: body.eventType, eventId: body.eventId, payload: {}, timestamp: new Date().toISOString() });
      }
      if (request.method === "POST" && request.url!.startsWith("/api/v1/auth/app-portal-access/")) {
        if (portalDown) return json(503, { code: "unavailable", detail: "down for maintenance" });
        return json(200, { token: "appsk_portal_token", url: "https://app.svix.example/login#key=appsk_portal_token" });
      }
      json(404, { code: "not_found", detail: "Entity not found" });
    });
  });
  await new Promise<void>((resolve) => svixDouble.listen(0, "127.0.0.1", resolve));
  svixUrl = `http://127.0.0.1:${(svixDouble.address() as { port: number }).port}`;
  server = await startTestServer({ LATCHKEY_SVIX_URL: svixUrl, LATCHKEY_SVIX_API_KEY: API_KEY });
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => svixDouble?.close(() => resolve()));
});

/** The request as sent, without what differs between any two requests (a random id, the client's version). */
const comparable = (request: Recorded) => ({
  method: request.method,
  path: request.path,
  body: request.body,
  authorization: request.headers.authorization,
  contentType: request.headers["content-type"],
});

describe("LATCHKEY_SVIX_URL: events handed to a Svix server", () => {
  it("creates each event as a message of the project's app, retried with the same idempotency key until Svix takes it", async () => {
    const project = await createTestProject(server, "Handed off");
    messagePlan.push(503);
    const user = await api(server.url, "/users", { method: "POST", body: { display_name: "Forwarded" }, headers: project.headers("server") });
    expect(user.status).toBe(201);
    const forwards = () => recorded.filter((r) => r.path.startsWith(`/api/v1/app/${project.projectId}/msg`) && r.body.eventType === "user.created");
    // The first forward is refused; the retry comes 5 s (±10 %) later.
    await waitUntil(async () => (forwards().length >= 2 ? true : undefined), 30_000);
    const [refused, taken] = forwards();
    const message = await server.db.selectFrom("webhook_messages").selectAll().where("project_id", "=", project.projectId).where("event_type", "=", "user.created").executeTakeFirstOrThrow();
    expect(refused!.body).toEqual({
      eventType: "user.created",
      eventId: message.id,
      payload: { type: "user.created", data: expect.objectContaining({ id: user.body.id, display_name: "Forwarded" }) },
      application: { name: "Handed off", uid: project.projectId },
    });
    // Svix sends one payload to every endpoint: the reference's, in the 2.8.41 shapes (issue 29).
    for (const field of ["is_restricted", "restricted_reason", "restricted_by_admin", "country_code", "risk_scores"]) expect(refused!.body.payload.data).not.toHaveProperty(field);
    expect(refused!.headers).toMatchObject({ authorization: `Bearer ${API_KEY}`, "idempotency-key": message.id });
    expect(taken!.body).toEqual(refused!.body);
    expect(taken!.headers["idempotency-key"]).toBe(message.id);
    const settled = await waitUntil(async () => {
      const row = await server.db.selectFrom("webhook_messages").selectAll().where("id", "=", message.id).executeTakeFirstOrThrow();
      return row.forwarded_at ? row : undefined;
    });
    expect(settled).toMatchObject({ forward_due_at: null, forward_attempts: 2 });
    // No delivery of Latchkey's own: Svix delivers.
    expect(await server.db.selectFrom("webhook_deliveries").select("message_id").where("message_id", "=", message.id).execute()).toEqual([]);

    // The official client, asked to create the same message, sends the same request.
    const svix = new Svix(API_KEY, { serverUrl: svixUrl });
    await svix.message.create(project.projectId, { eventType: "user.created", eventId: message.id, payload: refused!.body.payload, application: refused!.body.application }, { idempotencyKey: message.id });
    const official = recorded.at(-1)!;
    expect(comparable(taken!)).toEqual(comparable(official));
    expect(official.headers["idempotency-key"]).toBe(message.id);
  }, 60_000);

  it("hands out a token of the Svix server's app portal for the project's app", async () => {
    const project = await createTestProject(server, "Portal");
    const response = await api(server.url, "/webhooks/svix-token", { method: "POST", body: {}, headers: project.headers("admin") });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({ token: "appsk_portal_token" });
    const ours = recorded.at(-1)!;
    expect(ours.body).toEqual({ application: { name: "Portal", uid: project.projectId } });
    const svix = new Svix(API_KEY, { serverUrl: svixUrl });
    await svix.authentication.appPortalAccess(project.projectId, { application: { name: "Portal", uid: project.projectId } });
    expect(comparable(ours)).toEqual(comparable(recorded.at(-1)!));

    // Svix not answering with a token: a 502 (the gateway's upstream failed) naming it, not a 500. Plain fetch: the
    // api() helper refuses every 5xx.
    portalDown = true;
    try {
      const failed = await fetch(`${server.url}/api/v1/webhooks/svix-token`, { method: "POST", body: "{}", headers: { ...project.headers("admin"), "content-type": "application/json" } });
      expect(failed.status).toBe(502);
      expect(await failed.text()).toContain("The Svix server (LATCHKEY_SVIX_URL) did not hand out an app portal token");
    } finally {
      portalDown = false;
    }
  });
});

describe("LATCHKEY_SVIX_URL and LATCHKEY_SVIX_API_KEY", () => {
  it("are set both or neither, and the URL must be http(s)", () => {
    expect(() => readEnv({ LATCHKEY_SVIX_URL: "https://svix.example.com" })).toThrow("LATCHKEY_SVIX_URL and LATCHKEY_SVIX_API_KEY: set both");
    expect(() => readEnv({ LATCHKEY_SVIX_API_KEY: "sk_x" })).toThrow("set both");
    expect(() => readEnv({ LATCHKEY_SVIX_URL: "ftp://svix.example.com", LATCHKEY_SVIX_API_KEY: "sk_x" })).toThrow("LATCHKEY_SVIX_URL: must be an http:// or https:// URL");
    expect(readEnv({ LATCHKEY_SVIX_URL: "https://svix.example.com/", LATCHKEY_SVIX_API_KEY: "sk_x" }).svix).toEqual({ url: "https://svix.example.com", apiKey: "sk_x" });
    expect(readEnv({}).svix).toBeUndefined();
  });
});
