import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Svix, Webhook } from "svix";
import { api } from "./support/api.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { createUser as createUserInService } from "../src/services/users.js";
import { getProject } from "../src/services/projects.js";
import { isPrivateAddress } from "../src/services/webhook-targets.js";
import { WEBHOOK_EXAMPLES } from "../src/services/webhook-examples.js";
import { teamServerRead, userServerRead } from "@latchkey/protocol/schemas";
import { signInUser } from "../src/services/sessions.js";

/**
 * Webhooks (issue 18), end to end: events written with the change, delivered by the server's worker to a real
 * HTTP receiver that verifies every delivery with the official `svix` package, and endpoints managed with the
 * official `svix` client pointed at Latchkey's Svix-compatible API.
 */

let server: TestServer;
let receiver: Receiver;
let smtp: SmtpCapture;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpCapture();
  // The receiver listens on 127.0.0.1: the test server must be allowed to call private addresses. Mail to
  // project admins (an endpoint disabled) goes to the test's SMTP server.
  server = await startTestServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", LATCHKEY_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await smtp?.close();
});

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The payload as `Webhook.verify` returned it; null when verification failed. */
  verified: { type: string; data: any } | null;
}

interface Receiver {
  url: string;
  deliveries: Delivery[];
  secrets: Map<string, string>;
  /** Per path, the statuses to answer with in turn (then 200). */
  plans: Map<string, number[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const secrets = new Map<string, string>();
  const plans = new Map<string, number[]>();
  const http: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      const secret = secrets.get(path);
      let verified: Delivery["verified"] = null;
      try {
        if (secret) verified = new Webhook(secret).verify(body, request.headers as Record<string, string>) as Delivery["verified"];
      } catch {
        verified = null;
      }
      deliveries.push({ path, headers: request.headers, body, verified });
      const status = plans.get(path)?.shift() ?? 200;
      response.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "try again");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    secrets,
    plans,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

async function svixFor(project: TestProject): Promise<Svix> {
  const response = await api(server.url, "/webhooks/svix-token", { method: "POST", body: {}, headers: project.headers("admin") });
  expect(response.status, response.text).toBe(201);
  return new Svix(response.body.token, { serverUrl: `${server.url}/api/v1/webhooks/svix` });
}

/** An endpoint of the project at a fresh receiver path; its deliveries, verified with its secret. */
async function listen(project: TestProject, options: { filterTypes?: string[]; disabled?: boolean } = {}) {
  const svix = await svixFor(project);
  const path = `/hook/${crypto.randomUUID()}`;
  const endpoint = await svix.endpoint.create(project.projectId, { url: receiver.url + path, ...options });
  receiver.secrets.set(path, (await svix.endpoint.getSecret(project.projectId, endpoint.id)).key);
  const received = () => receiver.deliveries.filter((d) => d.path === path);
  return {
    path,
    endpoint,
    received,
    /** The verified events so far, in arrival order. */
    events: () => received().map((d) => d.verified),
    async waitFor(count: number): Promise<Delivery[]> {
      const deadline = Date.now() + 20_000;
      while (received().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(received().length, `deliveries to ${path}`).toBeGreaterThanOrEqual(count);
      return received();
    },
  };
}

/** Polls until `probe` gives a value (conditions, not fixed sleeps: the machine is loaded). */
async function waitUntil<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const as = (project: TestProject, access: "server" | "admin", path: string, method = "GET", body?: unknown) =>
  api(server.url, path, { method, body, headers: project.headers(access) });

/** Events of these types, in arrival order (arrival order between events is not promised). */
const ofTypes = (deliveries: Delivery[], ...types: string[]) => deliveries.map((d) => d.verified!).filter((e) => types.includes(e.type));

/** The same events in any order: the worker sends due deliveries at once, so they arrive in any order. */
function expectSameEvents(actual: unknown[], expected: unknown[]): void {
  expect(actual).toHaveLength(expected.length);
  expect(actual).toEqual(expect.arrayContaining(expected));
}

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
    expect(userServerRead.parse(data("user.created"))).toEqual(data("user.created"));
    expect(teamServerRead.parse(data("team.updated"))).toEqual(data("team.updated"));
    expect(data("team_membership.created")).toEqual({ team_id: expect.any(String), user_id: expect.any(String) });

    await expect(svix.endpoint.sendExample(project.projectId, hook.endpoint.id, { eventType: "no.such.type" })).rejects.toMatchObject({ code: 404 });
    await expect(svix.endpoint.sendExample(project.projectId, "ep_unknown", { eventType: "user.created" })).rejects.toMatchObject({ code: 404 });
  });
});

describe("webhook events", () => {
  it("delivers user and team create, update and delete events, signed and verified, with the server read shapes", async () => {
    const project = await createTestProject(server);
    // Creators' default permissions are announced too (tested below); this endpoint takes the rest.
    const hook = await listen(project, {
      filterTypes: ["user.created", "user.updated", "user.deleted", "team.created", "team.updated", "team.deleted", "team_membership.created", "team_membership.deleted"],
    });

    const user = await as(project, "server", "/users", "POST", { primary_email: `u-${crypto.randomUUID()}@example.com`, display_name: "Ada" });
    expect(user.status).toBe(201);
    const [created] = await hook.waitFor(1);
    expect(created!.verified).not.toBeNull();
    expect(created!.verified!.type).toBe("user.created");
    const { last_active_at_millis: _ignored, ...userShape } = (await as(project, "server", `/users/${user.body.id}`)).body;
    expect(created!.verified!.data).toMatchObject(userShape);
    // The Standard Webhooks headers and Svix's carry the same values.
    expect(created!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(created!.headers["svix-id"]).toBe(created!.headers["webhook-id"]);
    expect(created!.headers["svix-signature"]).toBe(created!.headers["webhook-signature"]);

    expect((await as(project, "server", `/users/${user.body.id}`, "PATCH", { display_name: "Ada L." })).status).toBe(200);
    const team = await as(project, "server", "/teams", "POST", { display_name: "Acme", creator_user_id: user.body.id });
    expect(team.status).toBe(201);
    expect((await as(project, "server", `/teams/${team.body.id}`, "PATCH", { display_name: "Acme Inc." })).status).toBe(200);
    expect((await as(project, "server", `/teams/${team.body.id}`, "DELETE")).status).toBe(200);
    const second = await as(project, "server", "/teams", "POST", { display_name: "Beta", creator_user_id: user.body.id });
    expect((await as(project, "server", `/users/${user.body.id}`, "DELETE")).status).toBe(200);

    // created, updated, team.created + membership, team.updated, membership removed + team.deleted,
    // team.created + membership, membership removed (by the user's deletion) + user.deleted.
    const all = await hook.waitFor(11);
    expect(all.every((d) => d.verified !== null)).toBe(true);
    expect(ofTypes(all, "user.updated").map((e) => e.data.display_name)).toEqual(["Ada L."]);
    expectSameEvents(
      ofTypes(all, "team.created").map((e) => e.data),
      [
        expect.objectContaining({ id: team.body.id, display_name: "Acme", server_metadata: null, created_at_millis: team.body.created_at_millis }),
        expect.objectContaining({ id: second.body.id, display_name: "Beta" }),
      ],
    );
    expect(ofTypes(all, "team.updated").map((e) => e.data)).toEqual([expect.objectContaining({ id: team.body.id, display_name: "Acme Inc." })]);
    expect(ofTypes(all, "team.deleted").map((e) => e.data)).toEqual([{ id: team.body.id }]);
    const membership = (teamId: string) => ({ team_id: teamId, user_id: user.body.id });
    expectSameEvents(ofTypes(all, "team_membership.created").map((e) => e.data), [membership(team.body.id), membership(second.body.id)]);
    expectSameEvents(ofTypes(all, "team_membership.deleted").map((e) => e.data), [membership(team.body.id), membership(second.body.id)]);
    expect(ofTypes(all, "user.deleted").map((e) => e.data)).toEqual([{ id: user.body.id, teams: [{ id: second.body.id }] }]);
    // One message per event: every delivery has its own id.
    expect(new Set(all.map((d) => d.headers["webhook-id"])).size).toBe(all.length);
  });

  it("announces a sign-up's personal team, and the user as the creating route answers it (before that team)", async () => {
    const project = await createTestProject(server, "Personal teams", { configOverride: { "teams.createPersonalTeamOnSignUp": true } });
    const hook = await listen(project, { filterTypes: ["user.created", "team.created", "team_membership.created"] });
    const user = await as(project, "server", "/users", "POST", { display_name: "Grace" });
    expect(user.status).toBe(201);
    const all = await hook.waitFor(3);
    const { selected_team_id: selectedTeamId } = (await as(project, "server", `/users/${user.body.id}`)).body;
    const [team] = ofTypes(all, "team.created").map((e) => e.data);
    expect(team).toMatchObject({ id: selectedTeamId, display_name: "Grace's Team" });
    expect(ofTypes(all, "team_membership.created").map((e) => e.data)).toEqual([{ team_id: team.id, user_id: user.body.id }]);
    const { last_active_at_millis: _ignored, ...answered } = user.body;
    expect(ofTypes(all, "user.created").map((e) => e.data)).toEqual([expect.objectContaining({ ...answered, selected_team: null, selected_team_id: null })]);
  });

  it("announces memberships added and removed through the membership routes", async () => {
    const project = await createTestProject(server);
    const user = await as(project, "server", "/users", "POST", {});
    const team = await as(project, "server", "/teams", "POST", { display_name: "Crew" });
    const hook = await listen(project, { filterTypes: ["team_membership.created", "team_membership.deleted"] });
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${user.body.id}`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${user.body.id}`, "DELETE")).status).toBe(200);
    const all = await hook.waitFor(2);
    expectSameEvents(
      all.map((d) => d.verified),
      [
        { type: "team_membership.created", data: { team_id: team.body.id, user_id: user.body.id } },
        { type: "team_membership.deleted", data: { team_id: team.body.id, user_id: user.body.id } },
      ],
    );
  });

  it("announces a membership made by accepting a team invitation", async () => {
    const project = await createTestProject(server);
    const team = await as(project, "server", "/teams", "POST", { display_name: "Invited" });
    const address = `invitee-${crypto.randomUUID()}@example.com`;
    const invitee = await as(project, "server", "/users", "POST", { primary_email: address, primary_email_verified: true });
    const hook = await listen(project, { filterTypes: ["team_membership.created"] });
    const callback = "http://localhost:3000/handler/team-invitation";
    const sent = await as(project, "server", "/team-invitations/send-code", "POST", { team_id: team.body.id, email: address, callback_url: callback });
    expect(sent.status, sent.text).toBe(200);
    // The invitation reaches the test's mail server; its link carries the code.
    const mail = await smtp.nextMessage(address);
    const link = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")).find((href) => href.startsWith(`${callback}?code=`));
    expect(link, mail.html).toBeDefined();
    const tokens = await signInUser(server.db, server.env, { projectId: project.projectId, userId: invitee.body.id });
    const accepted = await api(server.url, "/team-invitations/accept", {
      method: "POST",
      body: { code: new URL(link!).searchParams.get("code") },
      headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const [joined] = await hook.waitFor(1);
    expect(joined!.verified).toEqual({ type: "team_membership.created", data: { team_id: team.body.id, user_id: invitee.body.id } });
  });

  it("announces permissions granted and revoked, including a new member's default permissions", async () => {
    const project = await createTestProject(server);
    const patched = await as(project, "admin", "/internal/config/override", "PATCH", {
      config_override_string: JSON.stringify({ "rbac.defaultPermissions.teamMember": { $read_members: true } }),
    });
    expect(patched.status).toBe(200);
    expect((await as(project, "admin", "/project-permission-definitions", "POST", { id: "read_reports" })).status).toBe(201);
    const user = await as(project, "server", "/users", "POST", {});
    const team = await as(project, "server", "/teams", "POST", { display_name: "Crew" });
    const hook = await listen(project, { filterTypes: ["team_permission.created", "team_permission.deleted", "project_permission.created", "project_permission.deleted"] });
    const member = { team_id: team.body.id, user_id: user.body.id };
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${user.body.id}`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${user.body.id}/$update_team`, "POST", {})).status).toBe(201);
    // Granting a permission already held changes nothing and announces nothing.
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${user.body.id}/$update_team`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${user.body.id}/$update_team`, "DELETE")).status).toBe(200);
    expect((await as(project, "server", `/project-permissions/${user.body.id}/read_reports`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/project-permissions/${user.body.id}/read_reports`, "DELETE")).status).toBe(200);
    const all = await hook.waitFor(5);
    expectSameEvents(
      all.map((d) => d.verified),
      [
        { type: "team_permission.created", data: { id: "$read_members", ...member } },
        { type: "team_permission.created", data: { id: "$update_team", ...member } },
        { type: "team_permission.deleted", data: { id: "$update_team", ...member } },
        { type: "project_permission.created", data: { id: "read_reports", user_id: user.body.id } },
        { type: "project_permission.deleted", data: { id: "read_reports", user_id: user.body.id } },
      ],
    );
    // Written with their changes, so all there by now: five, none for the grant that was already held.
    const written = await (await svixFor(project)).message.list(project.projectId, { eventTypes: ["team_permission.created", "team_permission.deleted"] });
    expect(written.data).toHaveLength(3);
  });

  it("retries a delivery the receiver refused, with the same webhook-id, until it is accepted; lists the attempts; resends", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    receiver.plans.set(hook.path, [500]);
    await as(project, "server", "/users", "POST", {});
    // The second attempt comes 5 s (±10 %) after the first.
    const [refused, accepted] = await hook.waitFor(2);
    expect(refused!.verified!.type).toBe("user.created");
    expect(accepted!.verified).toEqual(refused!.verified);
    expect(accepted!.headers["webhook-id"]).toBe(refused!.headers["webhook-id"]);
    // The worker records the outcome once the receiver has answered.
    const row = await waitUntil(async () => {
      const delivery = await server.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", hook.endpoint.id).executeTakeFirstOrThrow();
      return delivery.status === "pending" ? undefined : delivery;
    });
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, last_response_status: 200, next_attempt_at: null });
    // The attempts as the svix client lists them, newest first; then a resend goes out at once, with the same id.
    const svix = await svixFor(project);
    const messageId = refused!.headers["webhook-id"] as string;
    const byMessage = await svix.messageAttempt.listByMsg(project.projectId, messageId);
    expect(byMessage.data.map((a) => [a.responseStatusCode, a.statusText, a.response])).toEqual([
      [200, "success", "ok"],
      [500, "fail", "try again"],
    ]);
    expect(byMessage.data.every((a) => a.msgId === messageId && a.endpointId === hook.endpoint.id && a.url === receiver.url + hook.path)).toBe(true);
    expect((await svix.messageAttempt.listByEndpoint(project.projectId, hook.endpoint.id, { status: 2 })).data.map((a) => a.responseStatusCode)).toEqual([500]);
    await svix.messageAttempt.resend(project.projectId, messageId, hook.endpoint.id);
    const [, , resent] = await hook.waitFor(3);
    expect(resent!.headers["webhook-id"]).toBe(messageId);
    expect(resent!.verified).toEqual(refused!.verified);
    await expect(svix.messageAttempt.resend(project.projectId, "msg_unknown", hook.endpoint.id)).rejects.toMatchObject({ code: 404 });
  }, 40_000);

  it("signs with the old and the new secret for a while after a rotation", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project, { filterTypes: ["team.created"] });
    const svix = await svixFor(project);
    const oldSecret = receiver.secrets.get(hook.path)!;
    const newSecret = "whsec_" + Buffer.from("a new secret of twenty-four+ bytes").toString("base64");
    await svix.endpoint.rotateSecret(project.projectId, hook.endpoint.id, { key: newSecret });
    expect((await svix.endpoint.getSecret(project.projectId, hook.endpoint.id)).key).toBe(newSecret);
    await as(project, "server", "/teams", "POST", { display_name: "Rotated" });
    const [delivery] = await hook.waitFor(1);
    expect(String(delivery!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({ type: "team.created" });
    }
    await expect(svix.endpoint.rotateSecret(project.projectId, "ep_unknown", {})).rejects.toMatchObject({ code: 404 });
  });

  it("emits nothing for a change that is rolled back", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    const row = await getProject(server.db, project.projectId);
    await expect(
      server.db.transaction().execute(async (trx) => {
        await createUserInService(trx, row, { displayName: "Rolled back" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // A committed change afterwards arrives; the rolled-back one never does.
    await as(project, "server", "/users", "POST", { display_name: "Committed" });
    await hook.waitFor(1);
    expect(hook.events().map((e) => e?.data.display_name)).toEqual(["Committed"]);
    // The outbox holds the committed event alone, so nothing else can be delivered later.
    const messages = await server.db.selectFrom("webhook_messages").select("payload").where("project_id", "=", project.projectId).execute();
    expect(messages).toHaveLength(1);
  });

  it("sends only the types an endpoint filters for, nothing to a disabled endpoint, and writes nothing without endpoints", async () => {
    const project = await createTestProject(server);
    const teamsOnly = await listen(project, { filterTypes: ["team.created"] });
    const disabled = await listen(project, { disabled: true });
    await as(project, "server", "/users", "POST", {});
    await as(project, "server", "/teams", "POST", { display_name: "Only this" });
    await teamsOnly.waitFor(1);
    expect(teamsOnly.events().map((e) => e?.type)).toEqual(["team.created"]);
    // What is queued decides what will ever be sent: one team.created for the filtered endpoint, nothing for the disabled one.
    const queued = await server.db
      .selectFrom("webhook_deliveries")
      .innerJoin("webhook_messages", "webhook_messages.id", "webhook_deliveries.message_id")
      .select(["webhook_deliveries.endpoint_id", "webhook_messages.event_type"])
      .where("webhook_messages.project_id", "=", project.projectId)
      .execute();
    expect(queued).toEqual([{ endpoint_id: teamsOnly.endpoint.id, event_type: "team.created" }]);
    expect(disabled.received()).toEqual([]);

    const quiet = await createTestProject(server);
    await as(quiet, "server", "/users", "POST", {});
    const messages = await server.db.selectFrom("webhook_messages").select("id").where("project_id", "=", quiet.projectId).execute();
    expect(messages).toEqual([]);
  });
});

describe("an endpoint that keeps failing", () => {
  it("is disabled once its attempts have failed for 5 days, its project's admins get one mail, and enabling it resumes delivery", async () => {
    const project = await createTestProject(server, "Failing hooks");
    // The project's admin: a user of the internal project, in the team that owns the project.
    const ownerEmail = `owner-${crypto.randomUUID()}@example.com`;
    const owner = await createUserInService(server.db, (await getProject(server.db, "internal"))!, { primaryEmail: ownerEmail, primaryEmailVerified: true });
    await server.db.updateTable("projects").set({ owner_team_id: owner.selected_team_id }).where("id", "=", project.projectId).execute();
    const hook = await listen(project, { filterTypes: ["user.created"] });
    receiver.plans.set(hook.path, Array.from({ length: 50 }, () => 503));
    const endpointRow = () => server.db.selectFrom("webhook_endpoints").select(["failing_since", "disabled"]).where("id", "=", hook.endpoint.id).executeTakeFirstOrThrow();

    await as(project, "server", "/users", "POST", { display_name: "First" });
    await hook.waitFor(1);
    // A failure starts the run of failures, but 5 days have not passed.
    await waitUntil(async () => ((await endpointRow()).failing_since ? true : undefined));
    expect((await endpointRow()).disabled).toBe(false);

    // As if the run had begun 5 days ago: the next failure disables the endpoint.
    await server.db.updateTable("webhook_endpoints").set({ failing_since: new Date(Date.now() - 5 * 86_400_000 - 60_000) }).where("id", "=", hook.endpoint.id).execute();
    const second = await as(project, "server", "/users", "POST", { display_name: "Second" });
    await waitUntil(async () => ((await endpointRow()).disabled ? true : undefined));
    const svix = await svixFor(project);
    expect((await svix.endpoint.get(project.projectId, hook.endpoint.id)).disabled).toBe(true);
    const mail = await smtp.nextMessage(ownerEmail);
    expect(mail.subject).toBe("Webhook endpoint disabled: Failing hooks");
    expect(mail.text).toContain(`${receiver.url}${hook.path}`);
    expect(mail.text).toContain("5 days");

    // While disabled nothing is sent; new events are not queued for it, and what was pending waits.
    const deliveredWhileDisabled = hook.received().length;
    await as(project, "server", "/users", "POST", { display_name: "Third" });
    const queued = await server.db.selectFrom("webhook_deliveries").select(["status"]).where("endpoint_id", "=", hook.endpoint.id).execute();
    expect(queued).toHaveLength(2);

    // Enabled again with a receiver that answers: the run of failures is over, and the pending deliveries go out.
    receiver.plans.set(hook.path, []);
    await svix.endpoint.patch(project.projectId, hook.endpoint.id, { disabled: false });
    expect((await endpointRow()).failing_since).toBeNull();
    const delivered = await waitUntil(async () => {
      const ok = hook.received().slice(deliveredWhileDisabled).map((d) => d.verified!.data.id);
      return ok.includes(second.body.id) ? ok : undefined;
    }, 30_000);
    expect(delivered).toContain(second.body.id);
    // One mail only.
    expect(smtp.messages.filter((m) => m.to.includes(ownerEmail))).toHaveLength(1);
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

describe("several server processes on one database", () => {
  it("deliver each message once: the workers share the due deliveries instead of racing for them", async () => {
    const second = await startTestServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" }, { sameDatabaseAs: server });
    try {
      const project = await createTestProject(server);
      const hook = await listen(project, { filterTypes: ["team.created"] });
      // Half the changes through each process, at once.
      const teams = await Promise.all(
        Array.from({ length: 30 }, (_, i) => api(i % 2 ? second.url : server.url, "/teams", { method: "POST", body: { display_name: `T${i}` }, headers: project.headers("server") })),
      );
      expect(teams.every((t) => t.status === 201)).toBe(true);
      await hook.waitFor(30);
      await waitUntil(async () => {
        const pending = await server.db.selectFrom("webhook_deliveries").select("message_id").where("endpoint_id", "=", hook.endpoint.id).where("status", "!=", "succeeded").execute();
        return pending.length === 0 ? true : undefined;
      });
      const received = hook.received();
      expect(received).toHaveLength(30);
      expect(new Set(received.map((d) => d.headers["webhook-id"])).size).toBe(30);
      expect(new Set(received.map((d) => d.verified?.data.id))).toEqual(new Set(teams.map((t) => t.body.id)));
      const attempts = await server.db.selectFrom("webhook_attempts").select("message_id").where("endpoint_id", "=", hook.endpoint.id).execute();
      expect(attempts).toHaveLength(30);
    } finally {
      await second.close();
    }
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
