import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createUser, email, server, signIn, useServerForFile } from "./support/users-fixture.js";

// Issue 13 §1 and §2: sign-in responses, anonymous sign-up, and sessions as the reference answers them.
useServerForFile();

const SIGN_IN_KEYS = ["access_token", "is_new_user", "refresh_token", "user_id"];
const ALLOW_ANONYMOUS = { "x-stack-allow-anonymous-user": "true" };
const post = (project: TestProject, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  api(server.url, path, { method: "POST", headers: { ...project.headers("client"), ...headers }, body });

describe("password routes that need a signed-in user", () => {
  for (const [path, body] of [
    ["/auth/password/set", { password: "a new password" }],
    ["/auth/password/update", { old_password: "the old password", new_password: "a new password" }],
  ] as const) {
    it(`answers ${path} without a user with the reference's SCHEMA_ERROR, not 401`, async () => {
      const project = await createTestProject(server);
      const response = await post(project, path, body);
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
      const message = `Request validation failed on POST /api/v1${path}:\n  - auth.user must be defined`;
      expect(response.body).toEqual({ code: "SCHEMA_ERROR", error: message, details: { message } });
    });
  }

  it("names the route's own path, under /api/latest too", async () => {
    const project = await createTestProject(server);
    const response = await fetch(`${server.url}/api/latest/auth/password/set`, {
      method: "POST",
      headers: { ...project.headers("client"), "content-type": "application/json" },
      body: JSON.stringify({ password: "a new password" }),
    });
    expect((await response.json()).error).toBe("Request validation failed on POST /api/latest/auth/password/set:\n  - auth.user must be defined");
  });
});

describe("sign-in responses", () => {
  it("keep is_new_user in password sign-up, password sign-in and anonymous sign-up", async () => {
    const project = await createTestProject(server);
    const address = email();
    const signedUp = await post(project, "/auth/password/sign-up", { email: address, password: "correct horse" });
    expect(Object.keys(signedUp.body).sort()).toEqual(SIGN_IN_KEYS);
    expect(signedUp.body.is_new_user).toBe(true);
    const signedIn = await post(project, "/auth/password/sign-in", { email: address, password: "correct horse" });
    expect(Object.keys(signedIn.body).sort()).toEqual(SIGN_IN_KEYS);
    expect(signedIn.body).toMatchObject({ user_id: signedUp.body.user_id, is_new_user: false });
    const anonymous = await post(project, "/auth/anonymous/sign-up");
    expect(Object.keys(anonymous.body).sort()).toEqual(SIGN_IN_KEYS);
    expect(anonymous.body.is_new_user).toBe(true);
  });
});

describe("anonymous sign-up", () => {
  it("is allowed on the internal project", async () => {
    const response = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", access: "client" });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.body.access_token)).toMatchObject({ project_id: "internal", aud: "internal:anon", is_anonymous: true, sub: response.body.user_id });
    const me = await api(server.url, "/users/me", { access: "client", headers: { "x-stack-access-token": response.body.access_token, ...ALLOW_ANONYMOUS } });
    expect(me.body).toMatchObject({ id: response.body.user_id, is_anonymous: true, primary_email: null, selected_team: null });
  });

  it("is allowed when sign-up is disabled, which still refuses a password sign-up", async () => {
    const project = await createTestProject(server);
    await configure(project, { "auth.allowSignUp": false, "auth.password.allowSignIn": true });
    const anonymous = await post(project, "/auth/anonymous/sign-up");
    expect(anonymous.status).toBe(200);
    expect(decodeJwt(anonymous.body.access_token).is_anonymous).toBe(true);
    const refused = await post(project, "/auth/password/sign-up", { email: email(), password: "correct horse" });
    expect(refused.body.code).toBe("SIGN_UP_NOT_ENABLED");
  });
});

describe("listing sessions", () => {
  it("lists impersonation sessions to admin callers only", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const own = await signIn(project, user.id);
    const impersonation = await as(project, "server", "/auth/sessions", { method: "POST", body: { user_id: user.id, is_impersonation: true } });
    expect(impersonation.status).toBe(200);
    const impersonationId = decodeJwt(impersonation.body.access_token).refresh_token_id;

    const idsAs = async (access: "client" | "server" | "admin") => {
      const listed = await as(project, access, `/auth/sessions?user_id=${access === "client" ? "me" : user.id}`, { tokens: access === "client" ? own : undefined });
      expect(listed.status).toBe(200);
      return listed.body.items.map((item: { id: string; is_impersonation: boolean }) => [item.id, item.is_impersonation]);
    };
    expect(await idsAs("client")).toEqual([[own.session.id, false]]);
    expect(await idsAs("server")).toEqual([[own.session.id, false]]);
    expect(await idsAs("admin")).toEqual([
      [impersonationId, true],
      [own.session.id, false],
    ]);
  });

  it("refuses a client naming another user with the reference's text", async () => {
    const project = await createTestProject(server);
    const alice = await createUser(project);
    const bob = await createUser(project);
    const response = await as(project, "client", `/auth/sessions?user_id=${bob.id}`, { tokens: await signIn(project, alice.id) });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.text).toBe("Client can only list sessions for their own user.");
  });
});
