import { StackClientInterface } from "@stackframe/stack-shared";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenIssuer } from "../src/crypto/access-tokens.js";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const ALLOW_ANONYMOUS = { "x-stack-allow-anonymous-user": "true" };
const email = () => `user-${crypto.randomUUID()}@example.com`;

async function anonymousSignUp(project: TestProject): Promise<{ access_token: string; refresh_token: string; user_id: string; is_new_user: boolean }> {
  // The client library sends this request without a body.
  const response = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", headers: project.headers("client") });
  expect(response.status).toBe(200);
  return response.body;
}
const mySessions = (project: TestProject, accessToken: string, headers: Record<string, string> = {}) =>
  api(server.url, "/auth/sessions?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": accessToken, ...headers } });
const userRow = (id: string) => server.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("anonymous sign-up", () => {
  it("creates a signed-in anonymous user whose tokens have their own audience and issuer", async () => {
    const project = await createTestProject(server);
    const tokens = await anonymousSignUp(project);
    expect(Object.keys(tokens).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(tokens.is_new_user).toBe(true);
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ sub: tokens.user_id, aud: `${project.projectId}:anon`, is_anonymous: true, email: null, name: null, project_id: project.projectId });
    expect((await userRow(tokens.user_id)).is_anonymous).toBe(true);

    const withAnonymousKeys = createRemoteJWKSet(new URL(`${server.url}/api/v1/projects/${project.projectId}/.well-known/jwks.json?include_anonymous=true`));
    await jwtVerify(tokens.access_token, withAnonymousKeys, { issuer: tokenIssuer(server.env, project.projectId, true), audience: `${project.projectId}:anon` });
    const regularKeys = createRemoteJWKSet(new URL(`${server.url}/api/v1/projects/${project.projectId}/.well-known/jwks.json`));
    await expect(jwtVerify(tokens.access_token, regularKeys)).rejects.toThrow();
  });

  it("gives tokens that count only when the request allows anonymous users", async () => {
    const project = await createTestProject(server);
    const tokens = await anonymousSignUp(project);
    const refused = await mySessions(project, tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    expect((await mySessions(project, tokens.access_token, { "x-stack-allow-anonymous-user": "false" })).body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");

    const allowed = await mySessions(project, tokens.access_token, ALLOW_ANONYMOUS);
    expect(allowed.status).toBe(200);
    expect(allowed.body.items[0]).toMatchObject({ user_id: tokens.user_id, is_current_session: true });
  });

  it("is available in the internal project too, as in the protocol", async () => {
    const response = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", access: "client" });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.body.access_token)).toMatchObject({ project_id: "internal", is_anonymous: true });
  });

  it("needs a project", async () => {
    const response = await api(server.url, "/auth/anonymous/sign-up", { method: "POST" });
    expect(response.body.code).toBe("ACCESS_TYPE_REQUIRED");
  });
});

describe("upgrading an anonymous user", () => {
  it("turns the same user into a regular one when it signs up with a password", async () => {
    const project = await createTestProject(server);
    const guest = await anonymousSignUp(project);
    const address = email();
    const upgraded = await api(server.url, "/auth/password/sign-up", {
      headers: { ...project.headers("client"), "x-stack-access-token": guest.access_token, ...ALLOW_ANONYMOUS },
      body: { email: address, password: "correct horse" },
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.user_id).toBe(guest.user_id);
    expect(decodeJwt(upgraded.body.access_token)).toMatchObject({ sub: guest.user_id, aud: project.projectId, is_anonymous: false, email: address });
    const row = await userRow(guest.user_id);
    expect(row.is_anonymous).toBe(false);
    expect(row.password_hash).not.toBeNull();

    // The new tokens are regular ones; the anonymous session now refreshes to a regular token as well.
    expect((await mySessions(project, upgraded.body.access_token)).status).toBe(200);
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": guest.refresh_token } });
    expect(decodeJwt(refreshed.body.access_token)).toMatchObject({ sub: guest.user_id, is_anonymous: false });

    const signIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password: "correct horse" } });
    expect(signIn.body.user_id).toBe(guest.user_id);
    const users = await server.db.selectFrom("users").select("id").where("project_id", "=", project.projectId).execute();
    expect(users).toHaveLength(1);
  });

  it("gives the upgraded user the personal team a sign-up gets, which anonymous users do not have", async () => {
    const project = await createTestProject(server);
    const configured = await api(server.url, "/internal/config/override", {
      method: "PATCH",
      headers: project.headers("admin"),
      body: { config_override_string: JSON.stringify({ "teams.createPersonalTeamOnSignUp": true }) },
    });
    expect(configured.status).toBe(200);
    const guest = await anonymousSignUp(project);
    expect((await userRow(guest.user_id)).selected_team_id).toBeNull();
    const upgraded = await api(server.url, "/auth/password/sign-up", {
      headers: { ...project.headers("client"), "x-stack-access-token": guest.access_token, ...ALLOW_ANONYMOUS },
      body: { email: "ada@example.com", password: "correct horse" },
    });
    expect(upgraded.status).toBe(200);
    const me = await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": upgraded.body.access_token } });
    expect(me.body.selected_team).toMatchObject({ display_name: "ada@example.com's Team" });
    expect(decodeJwt(upgraded.body.access_token).selected_team_id).toBe(me.body.selected_team_id);
    const memberships = await server.db.selectFrom("team_members").select("team_id").where("user_id", "=", guest.user_id).execute();
    expect(memberships).toEqual([{ team_id: me.body.selected_team_id }]);
  });

  it("leaves the user anonymous when the email is taken", async () => {
    const project = await createTestProject(server);
    const address = email();
    await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: address, password: "correct horse" } });
    const guest = await anonymousSignUp(project);
    const taken = await api(server.url, "/auth/password/sign-up", {
      headers: { ...project.headers("client"), "x-stack-access-token": guest.access_token, ...ALLOW_ANONYMOUS },
      body: { email: address, password: "correct horse" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
    const row = await userRow(guest.user_id);
    expect(row.is_anonymous).toBe(true);
    expect(row.password_hash).toBeNull();
  });

  it("creates a separate user when a regular user signs up again", async () => {
    const project = await createTestProject(server);
    const first = await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: email(), password: "correct horse" } });
    const second = await api(server.url, "/auth/password/sign-up", {
      headers: { ...project.headers("client"), "x-stack-access-token": first.body.access_token },
      body: { email: email(), password: "correct horse" },
    });
    expect(second.status).toBe(200);
    expect(second.body.user_id).not.toBe(first.body.user_id);
  });

  it("works the way the published client library does it", async () => {
    const project = await createTestProject(server);
    const client = new StackClientInterface({
      clientVersion: "js @stackframe/js@2.8.41",
      getBaseUrl: () => server.url,
      extraRequestHeaders: {},
      projectId: project.projectId,
      publishableClientKey: project.publishableClientKey,
    });
    const anonymous = await client.signUpAnonymously(client.createSession({ refreshToken: null }));
    if (anonymous.status !== "ok") throw anonymous.error;
    const session = client.createSession({ refreshToken: anonymous.data.refreshToken, accessToken: anonymous.data.accessToken });
    const signedUp = await client.signUpWithCredential(email(), "correct horse", "http://localhost:3000/handler/email-verification", session);
    if (signedUp.status !== "ok") throw signedUp.error;
    expect(decodeJwt(signedUp.data.accessToken).sub).toBe(decodeJwt(anonymous.data.accessToken).sub);
    expect(decodeJwt(signedUp.data.accessToken).is_anonymous).toBe(false);
  });
});
