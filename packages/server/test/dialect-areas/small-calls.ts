import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ANALYTICS_RETENTION_MS, deleteExpiredAnalyticsEvents } from "../../src/services/analytics-events.js";
import { api, expectProtocolInvariants, type ApiResponse } from "../support/api.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { server } from "../support/users-fixture.js";

// Issue 14: the smaller calls of the 2.8.108 client: the anonymous session a CLI login carries, bot-challenge
// fields, analytics batches (JSON or gzip) and backend URL discovery.
describe("the smaller calls in each dialect", () => {
  type Dialect = "2.8.41" | "2.8.108";
  const prefixOf = (dialect: Dialect) => (dialect === "2.8.41" ? "x-stack-" : "x-hexclave-");

  function headersFor(dialect: Dialect, project: TestProject, options: { accessToken?: string; anonymous?: boolean } = {}): Record<string, string> {
    const headers: Record<string, string> = { ...project.headers("client") };
    if (options.accessToken) headers["x-stack-access-token"] = options.accessToken;
    if (options.anonymous) headers["x-stack-allow-anonymous-user"] = "true";
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^x-stack-/, prefixOf(dialect)), value]));
  }

  function post(dialect: Dialect, project: TestProject, path: string, body: unknown, options: { accessToken?: string; anonymous?: boolean } = {}): Promise<ApiResponse> {
    return api(server.url, path, { method: "POST", headers: headersFor(dialect, project, options), body });
  }

  async function anonymousUser(project: TestProject) {
    const signedUp = await post("2.8.108", project, "/auth/anonymous/sign-up", undefined);
    expect(signedUp.status, signedUp.text).toBe(200);
    return signedUp.body as { user_id: string; access_token: string; refresh_token: string };
  }

  describe("a CLI login that carries the tool's anonymous session (2.8.108 anon_refresh_token)", () => {
    const check = (project: TestProject, loginCode: string) => post("2.8.108", project, "/auth/cli/complete", { login_code: loginCode, mode: "check" });

    it("tells the confirmation page's check that the tool is signed in anonymously", async () => {
      const project = await createTestProject(server);
      const anonymous = await anonymousUser(project);
      const started = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: anonymous.refresh_token });
      expect(started.status, started.text).toBe(200);
      expect(Object.keys(started.body).sort()).toEqual(["expires_at", "login_code", "polling_code"]);
      expect((await check(project, started.body.login_code)).body).toEqual({ cli_session_state: "anonymous" });

      const plain = await post("2.8.108", project, "/auth/cli", {});
      expect((await check(project, plain.body.login_code)).body).toEqual({ cli_session_state: "none" });
    });

    it("says none once the anonymous user signed up, or the session ended", async () => {
      const project = await createTestProject(server, "CLI", { configOverride: { "auth.password.allowSignIn": true } });
      const upgraded = await anonymousUser(project);
      const started = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: upgraded.refresh_token });
      const signUp = await post("2.8.108", project, "/auth/password/sign-up", { email: `cli-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }, {
        accessToken: upgraded.access_token,
        anonymous: true,
      });
      expect(signUp.body.user_id).toBe(upgraded.user_id);
      expect((await check(project, started.body.login_code)).body).toEqual({ cli_session_state: "none" });

      const ended = await anonymousUser(project);
      const second = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: ended.refresh_token });
      await server.db.deleteFrom("sessions").where("user_id", "=", ended.user_id).execute();
      expect((await check(project, second.body.login_code)).body).toEqual({ cli_session_state: "none" });
    });

    it("starts the login anyway with a token that is not a live anonymous session, and the login completes as usual", async () => {
      const project = await createTestProject(server);
      const started = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: "no-such-token" });
      expect(started.status).toBe(200);
      expect((await check(project, started.body.login_code)).body).toEqual({ cli_session_state: "none" });
      const person = await anonymousUser(project);
      const completed = await post("2.8.108", project, "/auth/cli/complete", { login_code: started.body.login_code, refresh_token: person.refresh_token });
      expect(completed.body).toEqual({ success: true });
      const polled = await post("2.8.108", project, "/auth/cli/poll", { polling_code: started.body.polling_code });
      expect(polled.status).toBe(201);
    });

    it("is refused from 2.8.41, which does not send it", async () => {
      const project = await createTestProject(server);
      const started = await post("2.8.41", project, "/auth/cli", { anon_refresh_token: "x" });
      expect(started.status).toBe(400);
      expect(started.body.error).toBe("Request validation failed on POST /api/v1/auth/cli:\n  - body contains unknown properties: anon_refresh_token");
    });
  });

  describe("bot-challenge fields (2.8.108), which Latchkey accepts and ignores", () => {
    const challenge = { bot_challenge_token: "token-from-the-widget", bot_challenge_phase: "invisible" };

    it("signs up with a password, with or without a verification link", async () => {
      const project = await createTestProject(server, "Bots", { configOverride: { "auth.password.allowSignIn": true } });
      for (const body of [challenge, { bot_challenge_unavailable: "true" }]) {
        const signedUp = await post("2.8.108", project, "/auth/password/sign-up", { email: `bot-${crypto.randomUUID()}@example.com`, password: "correct horse battery", ...body });
        expect(signedUp.status, signedUp.text).toBe(200);
        expect(signedUp.body.is_new_user).toBe(true);
      }
      const older = await post("2.8.41", project, "/auth/password/sign-up", { email: `bot-${crypto.randomUUID()}@example.com`, password: "correct horse battery", ...challenge });
      expect(older.body.error).toContain("body contains unknown properties: bot_challenge_token, bot_challenge_phase");
    });

    it("sends a sign-in code", async () => {
      const project = await createTestProject(server, "Bots", {
        configOverride: { "auth.otp.allowSignIn": true, "domains.trustedDomains.app": { baseUrl: "https://app.example.com", handlerPath: "/handler" } },
      });
      const body = { email: `bot-${crypto.randomUUID()}@example.com`, callback_url: "https://app.example.com/handler/magic-link-callback" };
      const sent = await post("2.8.108", project, "/auth/otp/send-sign-in-code", { ...body, ...challenge });
      expect(sent.status, sent.text).toBe(200);
      expect(Object.keys(sent.body)).toEqual(["nonce"]);
      const older = await post("2.8.41", project, "/auth/otp/send-sign-in-code", { ...body, bot_challenge_unavailable: "true" });
      expect(older.body.error).toContain("body contains unknown properties: bot_challenge_unavailable");
    });

    it("refuses a phase the protocol does not have", async () => {
      const project = await createTestProject(server, "Bots", { configOverride: { "auth.password.allowSignIn": true } });
      const answer = await post("2.8.108", project, "/auth/password/sign-up", { email: `bot-${crypto.randomUUID()}@example.com`, password: "correct horse battery", bot_challenge_phase: "loud" });
      expect(answer.body.code).toBe("SCHEMA_ERROR");
    });
  });

  describe("analytics batches (POST /analytics/events/batch)", () => {
    const batch = (events: unknown[]) => ({ session_replay_segment_id: crypto.randomUUID(), batch_id: crypto.randomUUID(), sent_at_ms: Date.now(), events });
    const pageView = (at: number) => ({ event_type: "$page-view", event_at_ms: at, data: { url: "https://app.example.com/", path: "/", entry_type: "initial" } });
    const click = (at: number) => ({ event_type: "$click", event_at_ms: at, data: { tag_name: "button", text: "Sign in", x: 4, y: 2 } });

    async function sendRaw(project: TestProject, accessToken: string, body: Uint8Array<ArrayBuffer> | string, contentType: string): Promise<ApiResponse> {
      const response = await fetch(`${server.url}/api/v1/analytics/events/batch`, {
        method: "POST",
        headers: { ...headersFor("2.8.108", project, { accessToken, anonymous: true }), "content-type": contentType },
        body,
      });
      const text = await response.text();
      const parsed = text.startsWith("{") ? JSON.parse(text) : text;
      expectProtocolInvariants(response, parsed);
      return { status: response.status, headers: response.headers, body: parsed, text };
    }
    const stored = (userId: string) =>
      server.db.selectFrom("analytics_events").select(["event_type", "event_at", "data", "project_id"]).where("user_id", "=", userId).orderBy("event_at").execute();

    it("stores the events of an anonymous user's batch sent as JSON", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      const at = Date.now() - 1000;
      const answer = await sendRaw(project, visitor.access_token, JSON.stringify(batch([pageView(at), click(at + 10)])), "application/json");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ inserted: 2 });
      expect(await stored(visitor.user_id)).toEqual([
        { event_type: "$page-view", event_at: new Date(at), data: pageView(at).data, project_id: project.projectId },
        { event_type: "$click", event_at: new Date(at + 10), data: click(at + 10).data, project_id: project.projectId },
      ]);
    });

    it("stores a batch sent gzip-compressed as application/octet-stream, as the browser client does", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      const at = Date.now();
      const answer = await sendRaw(project, visitor.access_token, new Uint8Array(gzipSync(JSON.stringify(batch([pageView(at)])))), "application/octet-stream");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ inserted: 1 });
      expect((await stored(visitor.user_id)).map((row) => row.event_type)).toEqual(["$page-view"]);
    });

    it("refuses bytes that are not gzip-compressed JSON, and a batch that inflates too far", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      const notGzip = await sendRaw(project, visitor.access_token, new TextEncoder().encode(JSON.stringify(batch([]))), "application/octet-stream");
      expect(notGzip.body.code).toBe("BODY_PARSING_ERROR");
      const notJson = await sendRaw(project, visitor.access_token, new Uint8Array(gzipSync("{not json")), "application/octet-stream");
      expect(notJson.body.code).toBe("BODY_PARSING_ERROR");
      const bomb = await sendRaw(project, visitor.access_token, new Uint8Array(gzipSync(" ".repeat(5_000_000))), "application/octet-stream");
      expect(bomb.body.code).toBe("BODY_PARSING_ERROR");
      expect(bomb.body.error).toContain("inflates to more than");
    });

    it("still hands other routes an octet-stream body as bytes, which their schemas refuse", async () => {
      const project = await createTestProject(server);
      const response = await fetch(`${server.url}/api/v1/auth/cli/poll`, {
        method: "POST",
        headers: { ...headersFor("2.8.108", project), "content-type": "application/octet-stream" },
        body: new Uint8Array(gzipSync(JSON.stringify({ polling_code: "x" }))),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe("SCHEMA_ERROR");
    });

    it("needs a signed-in user and a well-formed batch", async () => {
      const project = await createTestProject(server);
      const nobody = await sendRaw(project, "", JSON.stringify(batch([pageView(Date.now())])), "application/json");
      expect(nobody.body.error).toContain("auth.user must be defined");
      const visitor = await anonymousUser(project);
      const malformed = await sendRaw(project, visitor.access_token, JSON.stringify({ ...batch([{ event_type: "$click", event_at_ms: "now", data: {} }]), extra: 1 }), "application/json");
      expect(malformed.body.code).toBe("SCHEMA_ERROR");
      expect(malformed.body.error).toContain("body.events[0].event_at_ms");
    });

    it("deletes events older than the retention period when later batches come in", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      await sendRaw(project, visitor.access_token, JSON.stringify(batch([pageView(Date.now()), click(Date.now())])), "application/json");
      const later = new Date(Date.now() + ANALYTICS_RETENTION_MS + 60_000);
      expect(await deleteExpiredAnalyticsEvents(server.db, { now: later, limit: 1 })).toBe(1);
      expect(await deleteExpiredAnalyticsEvents(server.db, { now: later })).toBeGreaterThanOrEqual(1);
      expect(await stored(visitor.user_id)).toEqual([]);
      expect(await deleteExpiredAnalyticsEvents(server.db)).toBe(0);
    });
  });

  describe("backend URL discovery (GET /internal/backend-urls)", () => {
    it("is not answered, so the 2.8.108 client keeps the base URL it was given", async () => {
      const response = await fetch(`${server.url}/api/v1/internal/backend-urls`, { headers: { origin: "https://app.example.com" } });
      expect(response.status).toBe(404);
      // Readable cross-origin, so the client's background fetch sees a plain non-OK answer, which it ignores.
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    });
  });
});
