import { StackClientInterface } from "@stackframe/stack-shared";
import { RefreshToken } from "@stackframe/stack-shared/dist/sessions";
import { decodeJwt } from "jose";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProject } from "../src/services/projects.js";
import { createUser } from "../src/services/users.js";
import { api, expectProtocolInvariants, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Tokens {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

// As a browser's app signs in: sessions list their address only for browser requests (session-devices.test.ts).
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" };

async function signUp(project: TestProject): Promise<Tokens & { email: string }> {
  const email = `user-${crypto.randomUUID()}@example.com`;
  const response = await api(server.url, "/auth/password/sign-up", { headers: { ...project.headers("client"), ...BROWSER }, body: { email, password: "correct horse" } });
  expect(response.status).toBe(200);
  return { ...response.body, email };
}
async function signIn(project: TestProject, email: string): Promise<Tokens> {
  const response = await api(server.url, "/auth/password/sign-in", { headers: { ...project.headers("client"), ...BROWSER }, body: { email, password: "correct horse" } });
  expect(response.status).toBe(200);
  return response.body;
}
const asUser = (project: TestProject, tokens: { access_token: string }) => ({ ...project.headers("client"), "x-stack-access-token": tokens.access_token });
const refresh = (project: TestProject, refreshToken: string) =>
  api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": refreshToken } });
const listSessions = (project: TestProject, tokens: { access_token: string }, userId = "me") =>
  api(server.url, `/auth/sessions?user_id=${userId}`, { headers: asUser(project, tokens) });

/** A raw request to the token endpoint, as oauth4webapi sends it: a form body and no x-stack-* headers. */
async function tokenRequest(params: Record<string, string>, headers: Record<string, string> = {}, json = false): Promise<ApiResponse> {
  const response = await fetch(`${server.url}/api/v1/auth/oauth/token`, {
    method: "POST",
    headers: { "content-type": json ? "application/json" : "application/x-www-form-urlencoded;charset=UTF-8", accept: "application/json", ...headers },
    body: json ? JSON.stringify(params) : new URLSearchParams(params),
  });
  const text = await response.text();
  const body = JSON.parse(text);
  expectProtocolInvariants(response, body);
  return { status: response.status, headers: response.headers, body, text };
}

describe("server-created sessions", () => {
  it("creates a session for a user, with the default expiry of a year", async () => {
    const project = await createTestProject(server);
    const { user_id } = await signUp(project);
    const created = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id } });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(["access_token", "refresh_token"]);
    expect(decodeJwt(created.body.access_token).sub).toBe(user_id);
    const row = await server.db.selectFrom("sessions").selectAll().where("id", "=", decodeJwt(created.body.access_token).refresh_token_id as string).executeTakeFirstOrThrow();
    expect(row.expires_at!.getTime() - row.created_at.getTime()).toBeGreaterThan(31_536_000_000 - 60_000);
    expect(row.expires_at!.getTime() - row.created_at.getTime()).toBeLessThan(31_536_000_000 + 60_000);
    expect(row.is_impersonation).toBe(false);
  });

  it("marks impersonation sessions and honours a short expiry", async () => {
    const project = await createTestProject(server);
    const { user_id, access_token } = await signUp(project);
    const impersonation = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id, is_impersonation: true } });
    const impersonationId = decodeJwt(impersonation.body.access_token).refresh_token_id;
    // Listed to admins only (issue 13 §2): the user does not see who acts as them.
    const byAdmin = await api(server.url, `/auth/sessions?user_id=${user_id}`, { headers: project.headers("admin") });
    expect(byAdmin.body.items.find((s: { id: string }) => s.id === impersonationId)).toMatchObject({ is_impersonation: true });
    const byUser = await listSessions(project, { access_token });
    expect(byUser.body.items.map((s: { id: string }) => s.id)).not.toContain(impersonationId);

    const brief = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id, expires_in_millis: 200 } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await refresh(project, brief.body.refresh_token)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("is for servers only, for existing users, and at most 367 days", async () => {
    const project = await createTestProject(server);
    const { user_id } = await signUp(project);
    const asClient = await api(server.url, "/auth/sessions", { headers: project.headers("client"), body: { user_id } });
    expect(asClient.status).toBe(401);
    expect(asClient.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");

    const missing = crypto.randomUUID();
    const unknown = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id: missing } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: missing } });

    const otherProject = await createTestProject(server);
    expect((await api(server.url, "/auth/sessions", { headers: otherProject.headers("server"), body: { user_id } })).body.code).toBe("USER_ID_DOES_NOT_EXIST");

    const tooLong = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id, expires_in_millis: 368 * 86_400_000 } });
    expect(tooLong.body.code).toBe("SCHEMA_ERROR");
    expect(tooLong.body.error).toContain("body.expires_in_millis must be less than or equal to 31708800000");
    expect((await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id: "nope" } })).body.error).toContain("body.user_id must be a valid UUID");
  });

  it("is stored only in its user's project, and goes when the project does", async () => {
    const project = await createTestProject(server);
    const otherProject = await createTestProject(server);
    const { user_id } = await signUp(project);
    const sessionsOf = async () => (await sql<{ count: number }>`select count(*)::int as count from sessions where user_id = ${user_id}`.execute(server.db)).rows[0]!.count;
    expect(await sessionsOf()).toBe(1);
    // One foreign key to the user's (id, project_id): a session in another project than its user's is refused.
    const misplaced = sql`insert into sessions (project_id, user_id, refresh_token_hash) values (${otherProject.projectId}, ${user_id}, ${new Uint8Array(32)})`.execute(server.db);
    await expect(misplaced).rejects.toMatchObject({ code: "23503" });
    await sql`delete from projects where id = ${project.projectId}`.execute(server.db);
    expect(await sessionsOf()).toBe(0);
  });
});

describe("a user's last activity", () => {
  const backdate = (userId: string) =>
    server.db.updateTable("users").set({ last_active_at: new Date(Date.now() - 3_600_000) }).where("id", "=", userId).execute();
  const lastActive = async (project: TestProject, userId: string): Promise<number> => {
    const user = await api(server.url, `/users/${userId}`, { headers: project.headers("server") });
    expect(user.status).toBe(200);
    return user.body.last_active_at_millis;
  };

  it("moves when the user signs in, and not when an admin starts an impersonation session", async () => {
    const project = await createTestProject(server);
    const { email, user_id: userId } = await signUp(project);
    await backdate(userId);
    const before = await lastActive(project, userId);
    expect(Date.now() - before).toBeGreaterThan(3_000_000);

    await signIn(project, email);
    expect(Date.now() - (await lastActive(project, userId))).toBeLessThan(60_000);

    await backdate(userId);
    const impersonated = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id: userId, is_impersonation: true } });
    expect(impersonated.status).toBe(200);
    expect(Date.now() - (await lastActive(project, userId))).toBeGreaterThan(3_000_000);
  });
});

describe("refreshing", () => {
  it("gives a new access token for a live refresh token and records the use", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const sessionId = decodeJwt(tokens.access_token).refresh_token_id as string;
    // Activity is written at most once a minute: pretend the last use was long ago.
    await server.db.updateTable("sessions").set({ last_used_at: new Date(Date.now() - 3_600_000) }).where("id", "=", sessionId).execute();

    const refreshed = await refresh(project, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body)).toEqual(["access_token"]);
    const claims = decodeJwt(refreshed.body.access_token);
    expect(claims).toMatchObject({ sub: tokens.user_id, refresh_token_id: sessionId });

    const [session] = (await listSessions(project, refreshed.body)).body.items;
    expect(Date.now() - session.last_used_at).toBeLessThan(60_000);
    expect(session.last_used_at_end_user_ip_info).toEqual({
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      countryCode: null,
      regionCode: null,
      cityName: null,
      latitude: null,
      longitude: null,
      tzIdentifier: null,
    });
  });

  it("refuses unknown tokens, other projects' tokens, and a missing header", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const tokens = await signUp(project);
    for (const response of [await refresh(project, "not-a-refresh-token"), await refresh(other, tokens.refresh_token)]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    }
    const missing = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: project.headers("client") });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("SCHEMA_ERROR");
    expect(missing.body.error).toContain("headers.x-stack-refresh-token must be defined");
  });
});

describe("the OAuth token endpoint's refresh grant", () => {
  it("answers a form-encoded request with a standard token response", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const response = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: project.projectId, client_secret: project.publishableClientKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body).toEqual({ access_token: expect.any(String), token_type: "bearer", expires_in: server.env.accessTokenLifetimeSeconds, refresh_token: tokens.refresh_token });
    expect(decodeJwt(response.body.access_token)).toMatchObject({ sub: tokens.user_id, refresh_token_id: decodeJwt(tokens.access_token).refresh_token_id });
  });

  it("accepts JSON bodies, HTTP Basic client credentials and a client id with the branch", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const json = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: project.projectId, client_secret: project.publishableClientKey }, {}, true);
    expect(json.status).toBe(200);
    const basic = Buffer.from(`${encodeURIComponent(`${project.projectId}#main`)}:${encodeURIComponent(project.publishableClientKey)}`).toString("base64");
    const viaBasic = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }, { authorization: `Basic ${basic}` });
    expect(viaBasic.status).toBe(200);
  });

  it("reports bad clients and bad refresh tokens as known errors, bad requests in RFC 6749 form", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const tokens = await signUp(project);
    const base = { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: project.projectId, client_secret: project.publishableClientKey };

    for (const params of [{ ...base, client_secret: "wrong" }, { ...base, client_secret: other.publishableClientKey }, { ...base, client_id: crypto.randomUUID() }, { ...base, client_id: `${project.projectId}#dev` }]) {
      const response = await tokenRequest(params);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: "INVALID_OAUTH_CLIENT_ID_OR_SECRET", details: { client_id: params.client_id } });
    }
    const noClient = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(noClient.body.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");

    const badToken = await tokenRequest({ ...base, refresh_token: "nope" });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get("x-stack-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const otherProjectsToken = await tokenRequest({ ...base, client_id: other.projectId, client_secret: other.publishableClientKey });
    expect(otherProjectsToken.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");

    const unsupported = await tokenRequest({ ...base, grant_type: "password" });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toEqual({ error: "unsupported_grant_type", error_description: "Unsupported grant type: password" });
    expect((await tokenRequest({ ...base, grant_type: "" })).body.error).toBe("invalid_request");
    const { refresh_token: _, ...withoutToken } = base;
    expect((await tokenRequest(withoutToken)).body).toEqual({ error: "invalid_request", error_description: "Missing parameter: refresh_token" });
  });

  it("is how the published client library refreshes, and a revoked session reads as signed out", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const client = new StackClientInterface({
      clientVersion: "js @stackframe/js@2.8.41",
      getBaseUrl: () => server.url,
      extraRequestHeaders: {},
      projectId: project.projectId,
      publishableClientKey: project.publishableClientKey,
    });
    const accessToken = await client.fetchNewAccessToken(new RefreshToken(tokens.refresh_token));
    expect(accessToken?.payload.sub).toBe(tokens.user_id);

    // A session with only a refresh token: the library refreshes through the token endpoint first.
    const session = client.createSession({ refreshToken: tokens.refresh_token, accessToken: null });
    const listed = await client.listSessions(session);
    expect(listed.items.map((s) => s.is_current_session)).toEqual([true]);

    await client.signOut(session);
    expect(await client.fetchNewAccessToken(new RefreshToken(tokens.refresh_token))).toBeNull();
  });
});

describe("signing out", () => {
  it("ends the session the access token belongs to", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const other = await signIn(project, tokens.email);
    const out = await api(server.url, "/auth/sessions/current", { method: "DELETE", headers: asUser(project, tokens), body: {} });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect((await refresh(project, tokens.refresh_token)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect((await refresh(project, other.refresh_token)).status).toBe(200);

    // The access token is still unexpired, but its session is gone: signing out again says so.
    const again = await api(server.url, "/auth/sessions/current", { method: "DELETE", headers: asUser(project, tokens) });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("ends the session of the refresh token header when there is no access token", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const out = await api(server.url, "/auth/sessions/current", { method: "DELETE", headers: { ...project.headers("client"), "x-stack-refresh-token": tokens.refresh_token } });
    expect(out.status).toBe(200);
    expect((await refresh(project, tokens.refresh_token)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");

    const nothing = await api(server.url, "/auth/sessions/current", { method: "DELETE", headers: project.headers("client") });
    expect(nothing.status).toBe(401);
    expect(nothing.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });
});

describe("listing and ending sessions", () => {
  it("lists the user's sessions in the protocol's shape", async () => {
    const project = await createTestProject(server);
    const first = await signUp(project);
    const second = await signIn(project, first.email);
    const listed = await listSessions(project, second);
    expect(listed.status).toBe(200);
    expect(listed.body.is_paginated).toBe(false);
    expect(listed.body.items).toHaveLength(2);
    for (const item of listed.body.items) {
      // The reference's fields, and Latchkey's extension `last_used_at_user_agent` (session-devices.test.ts).
      expect(Object.keys(item).sort()).toEqual(["created_at", "id", "is_current_session", "is_impersonation", "last_used_at", "last_used_at_end_user_ip_info", "last_used_at_user_agent", "user_id"]);
      expect(item).toMatchObject({ user_id: first.user_id, is_impersonation: false, created_at: expect.any(Number), last_used_at: expect.any(Number) });
    }
    const current = listed.body.items.filter((s: { is_current_session: boolean }) => s.is_current_session);
    expect(current.map((s: { id: string }) => s.id)).toEqual([decodeJwt(second.access_token).refresh_token_id]);

    const byServer = await api(server.url, `/auth/sessions?user_id=${first.user_id}`, { headers: project.headers("server") });
    expect(byServer.body.items).toHaveLength(2);
    expect(byServer.body.items.every((s: { is_current_session: boolean }) => !s.is_current_session)).toBe(true);
    const ownIdAsClient = await listSessions(project, second, first.user_id);
    expect(ownIdAsClient.body.items).toHaveLength(2);
  });

  it("keeps clients to their own sessions", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    const bob = await signUp(project);
    const peek = await listSessions(project, alice, bob.user_id);
    expect(peek.status).toBe(403);

    const noUser = await api(server.url, "/auth/sessions?user_id=me", { headers: project.headers("client") });
    expect(noUser.status).toBe(400);
    expect(noUser.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const serverMe = await api(server.url, "/auth/sessions?user_id=me", { headers: project.headers("server") });
    expect(serverMe.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");

    const noQuery = await api(server.url, "/auth/sessions", { headers: asUser(project, alice) });
    expect(noQuery.body.code).toBe("SCHEMA_ERROR");
    expect(noQuery.body.error).toContain("query.user_id must be defined");
    // `me` is mapped to a uuid before the uuid check, so the protocol's words do not mention it.
    expect((await listSessions(project, alice, "someone")).body.error).toMatch(/\n  - query\.user_id must be a valid UUID$/);

    const bobsSession = decodeJwt(bob.access_token).refresh_token_id as string;
    const steal = await api(server.url, `/auth/sessions/${bobsSession}?user_id=me`, { method: "DELETE", headers: asUser(project, alice) });
    expect(steal.status).toBe(404);
    expect((await refresh(project, bob.refresh_token)).status).toBe(200);
  });

  it("ends another session of the user but never the current one", async () => {
    const project = await createTestProject(server);
    const first = await signUp(project);
    const second = await signIn(project, first.email);
    const currentId = decodeJwt(second.access_token).refresh_token_id as string;
    const otherId = decodeJwt(first.access_token).refresh_token_id as string;

    const current = await api(server.url, `/auth/sessions/${currentId}?user_id=me`, { method: "DELETE", headers: asUser(project, second) });
    expect(current.status).toBe(400);
    expect(current.body.code).toBe("CANNOT_DELETE_CURRENT_SESSION");

    const other = await api(server.url, `/auth/sessions/${otherId}?user_id=me`, { method: "DELETE", headers: asUser(project, second) });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ success: true });
    expect((await refresh(project, first.refresh_token)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect((await listSessions(project, second)).body.items.map((s: { id: string }) => s.id)).toEqual([currentId]);

    const gone = await api(server.url, `/auth/sessions/${otherId}?user_id=me`, { method: "DELETE", headers: asUser(project, second) });
    expect(gone.status).toBe(404);
    const notAnId = await api(server.url, `/auth/sessions/not-a-uuid?user_id=me`, { method: "DELETE", headers: asUser(project, second) });
    expect(notAnId.status).toBe(404);
  });

  it("lets servers end any session of the project by id", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const row = (await findProject(server.db, project.projectId))!;
    const user = await createUser(server.db, row, {});
    const created = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id: user.id } });
    const sessionId = decodeJwt(created.body.access_token).refresh_token_id as string;

    expect((await api(server.url, `/auth/sessions/${sessionId}`, { method: "DELETE", headers: other.headers("server") })).status).toBe(404);
    const ended = await api(server.url, `/auth/sessions/${sessionId}`, { method: "DELETE", headers: project.headers("server") });
    expect(ended.status).toBe(200);
    expect((await refresh(project, created.body.refresh_token)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});
