import bcrypt from "bcryptjs";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordHashRuns } from "../src/crypto/passwords.js";
import { findProject } from "../src/services/projects.js";
import { createUser } from "../src/services/users.js";
import { api, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const email = () => `user-${crypto.randomUUID()}@example.com`;

function post(project: TestProject, path: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return api(server.url, path, { method: "POST", headers: { ...project.headers("client"), ...headers }, body });
}
const signUp = (project: TestProject, body: Record<string, unknown>, headers?: Record<string, string>) => post(project, "/auth/password/sign-up", body, headers);
const signIn = (project: TestProject, body: Record<string, unknown>) => post(project, "/auth/password/sign-in", body);
const refresh = (project: TestProject, refreshToken: string) =>
  api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": refreshToken } });
const configure = async (project: TestProject, config: Record<string, unknown>) => {
  const response = await api(server.url, "/internal/projects/current", { method: "PATCH", headers: project.headers("admin"), body: { config } });
  expect(response.status).toBe(200);
};
const passwordHashOf = async (userId: string) => (await server.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow()).password_hash;

describe("password sign-up", () => {
  it("creates a user and signs it in with the sign-in response", async () => {
    const project = await createTestProject(server);
    const address = email();
    const response = await signUp(project, { email: address, password: "correct horse", verification_callback_url: "http://localhost:3000/handler/email-verification" });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(response.body.is_new_user).toBe(true);
    const claims = decodeJwt(response.body.access_token);
    expect(claims).toMatchObject({ sub: response.body.user_id, project_id: project.projectId, email: address, email_verified: false, is_anonymous: false });
    expect((await passwordHashOf(response.body.user_id))!.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    expect((await refresh(project, response.body.refresh_token)).status).toBe(200);
  });

  it("refuses an email that already signs in to another account", async () => {
    const project = await createTestProject(server);
    const address = email();
    expect((await signUp(project, { email: address, password: "first password" })).status).toBe(200);
    const again = await signUp(project, { email: address, password: "second password" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
    expect(again.body.details.email).toBe(address);
  });

  it("lets the same email sign up in another project", async () => {
    const address = email();
    expect((await signUp(await createTestProject(server), { email: address, password: "first password" })).status).toBe(200);
    expect((await signUp(await createTestProject(server), { email: address, password: "first password" })).status).toBe(200);
  });

  it("applies the password length rules in UTF-16 code units, with their details", async () => {
    const project = await createTestProject(server);
    const short = await signUp(project, { email: email(), password: "seven77" });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: "PASSWORD_TOO_SHORT", details: { min_length: 8 } });

    const long = await signUp(project, { email: email(), password: "x".repeat(71) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: "PASSWORD_TOO_LONG", details: { maxLength: 70 } });

    // Four astral characters are 8 code units (16 bytes); 35 are exactly 70 units; 36 are too many.
    expect((await signUp(project, { email: email(), password: "🔑".repeat(4) })).status).toBe(200);
    expect((await signUp(project, { email: email(), password: "🔑".repeat(35) })).status).toBe(200);
    expect((await signUp(project, { email: email(), password: "🔑".repeat(36) })).body.code).toBe("PASSWORD_TOO_LONG");
    expect((await signUp(project, { email: email(), password: "x".repeat(70) })).status).toBe(200);
    expect((await signUp(project, { email: email(), password: "x".repeat(8) })).status).toBe(200);
  });

  it("never fails on unusual characters in a password", async () => {
    const project = await createTestProject(server);
    for (const password of ["\ud800\udfff paired surrogates", "ÄÖÜ ß 日本語 パスワード", "\u202e\u200b\ufeff right-to-left"]) {
      const address = email();
      const up = await signUp(project, { email: address, password });
      expect(up.status, JSON.stringify(password)).toBe(200);
      expect((await signIn(project, { email: address, password })).status, JSON.stringify(password)).toBe(200);
    }
  });

  it("rejects text no field may hold (null characters, lone surrogates) as a schema error, also in passwords", async () => {
    const project = await createTestProject(server);
    for (const password of ["\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000", "\ud800\udfff\ud800 lone surrogates"]) {
      const up = await signUp(project, { email: email(), password });
      expect(up.status, JSON.stringify(password)).toBe(400);
      expect(up.body.code).toBe("SCHEMA_ERROR");
      expect(up.body.error).toContain("body.password must not contain null characters or unpaired surrogates");
    }
  });

  it("respects the project's sign-up and password switches", async () => {
    const project = await createTestProject(server);
    await configure(project, { sign_up_enabled: false });
    const closed = await signUp(project, { email: email(), password: "correct horse" });
    expect(closed.status).toBe(400);
    expect(closed.body.code).toBe("SIGN_UP_NOT_ENABLED");

    await configure(project, { sign_up_enabled: true, credential_enabled: false });
    const noPasswords = await signUp(project, { email: email(), password: "correct horse" });
    expect(noPasswords.status).toBe(400);
    expect(noPasswords.body.code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED");
    expect((await signIn(project, { email: email(), password: "correct horse" })).body.code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED");
  });

  it("accepts verification callback URLs only under trusted domains, or localhost when allowed", async () => {
    const project = await createTestProject(server);
    const attempt = (url: string) => signUp(project, { email: email(), password: "correct horse", verification_callback_url: url });

    const untrusted = await attempt("https://evil.example.com/handler/email-verification");
    expect(untrusted.status).toBe(400);
    expect(untrusted.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect((await attempt("http://localhost:5173/verify")).status).toBe(200);

    await configure(project, { allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
    expect((await attempt("https://app.example.com/handler/email-verification")).status).toBe(200);
    expect((await attempt("http://localhost:5173/verify")).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect((await attempt("https://app.example.com.evil.com/verify")).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect((await attempt("https://evil.com@app.example.com/verify")).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");

    const notAUrl = await attempt("not a url");
    expect(notAUrl.status).toBe(400);
    expect(notAUrl.body.code).toBe("SCHEMA_ERROR");
    expect(notAUrl.body.error).toContain("body.verification_callback_url contains spaces");
  });

  it("validates the body with the protocol's messages", async () => {
    const project = await createTestProject(server);
    const bad = await signUp(project, { email: "not-an-email", password: "correct horse", extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("SCHEMA_ERROR");
    expect(bad.body.error).toContain("body.email must be a valid email");
    expect(bad.body.error).toContain("body contains unknown properties: extra");
    const missing = await signUp(project, {});
    expect(missing.body.error).toContain("body.email must be defined");
    expect(missing.body.error).toContain("body.password must be defined");
  });

  it("needs a project", async () => {
    const response = await api(server.url, "/auth/password/sign-up", { body: { email: email(), password: "correct horse" } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("ACCESS_TYPE_REQUIRED");
  });
});

describe("password sign-in", () => {
  it("signs in with the right password and answers every failure alike", async () => {
    const project = await createTestProject(server);
    const address = email();
    const up = await signUp(project, { email: address, password: "correct horse" });

    const ok = await signIn(project, { email: address, password: "correct horse" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ user_id: up.body.user_id, is_new_user: false });
    expect(ok.body.refresh_token).not.toBe(up.body.refresh_token);
    expect(decodeJwt(ok.body.access_token).sub).toBe(up.body.user_id);

    const wrongPassword = await signIn(project, { email: address, password: "wrong horse" });
    const unknownEmail = await signIn(project, { email: email(), password: "correct horse" });
    const tooLong = await signIn(project, { email: address, password: "x".repeat(500) });
    for (const failure of [wrongPassword, unknownEmail, tooLong]) {
      expect(failure.status).toBe(400);
      expect(failure.body).toEqual({ code: "EMAIL_PASSWORD_MISMATCH", error: "Wrong e-mail or password." });
    }
  });

  it("does not sign in an account of another project, or one without a password", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const address = email();
    await signUp(other, { email: address, password: "correct horse" });
    expect((await signIn(project, { email: address, password: "correct horse" })).body.code).toBe("EMAIL_PASSWORD_MISMATCH");

    const row = (await findProject(server.db, project.projectId))!;
    const passwordless = email();
    await createUser(server.db, row, { primaryEmail: passwordless, primaryEmailAuthEnabled: true });
    expect((await signIn(project, { email: passwordless, password: "" })).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("upgrades an imported bcrypt hash after a successful sign-in, and only then", async () => {
    const project = await createTestProject(server);
    const row = (await findProject(server.db, project.projectId))!;
    const address = email();
    const imported = bcrypt.hashSync("imported secret", 10);
    const user = await createUser(server.db, row, { primaryEmail: address, passwordHash: imported });

    expect((await signIn(project, { email: address, password: "not it at all" })).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(await passwordHashOf(user.id)).toBe(imported);

    expect((await signIn(project, { email: address, password: "imported secret" })).status).toBe(200);
    const upgraded = await passwordHashOf(user.id);
    expect(upgraded!.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    expect((await signIn(project, { email: address, password: "imported secret" })).status).toBe(200);
    expect(await passwordHashOf(user.id)).toBe(upgraded);
  });

  // The hash is what makes a sign-in slow (about 10 ms of CPU; the database reads are the same either way), so
  // an unknown email that skipped it would answer measurably sooner. Counted rather than timed: on a loaded
  // 2-core machine the ratio of the two paths' median times fell to 0.66 with both hashing, and was 0.39 here
  // with the unknown path skipping the hash — too close to tell apart without timing luck.
  it("checks one password hash for an unknown email, as for a wrong password", async () => {
    const project = await createTestProject(server);
    const addresses = Array.from({ length: 3 }, email);
    for (const address of addresses) await signUp(project, { email: address, password: "correct horse" });
    // The requests of this file run one at a time, so the process-wide count moves only for this one.
    const hashChecksFor = async (body: Record<string, unknown>) => {
      const before = passwordHashRuns.argon2Verify;
      const response = await signIn(project, body);
      expect(response.body.code).toBe("EMAIL_PASSWORD_MISMATCH");
      return passwordHashRuns.argon2Verify - before;
    };
    for (const address of addresses) {
      expect(await hashChecksFor({ email: address, password: "wrong" }), "a wrong password").toBe(1);
      expect(await hashChecksFor({ email: email(), password: "wrong" }), "an unknown email").toBe(1);
    }
    const passwordless = email();
    const created = await api(server.url, "/users", { method: "POST", headers: project.headers("server"), body: { primary_email: passwordless, primary_email_auth_enabled: true } });
    expect(created.status).toBe(201);
    expect(await hashChecksFor({ email: passwordless, password: "anything" }), "an account without a password").toBe(1);
  });
});

describe("changing and setting a password", () => {
  it("changes the password after checking the old one and ends the user's other sessions", async () => {
    const project = await createTestProject(server);
    const address = email();
    const first = (await signUp(project, { email: address, password: "old password" })).body;
    const second = (await signIn(project, { email: address, password: "old password" })).body;
    const update = (body: Record<string, unknown>) => post(project, "/auth/password/update", body, { "x-stack-access-token": second.access_token });

    const wrongOld = await update({ old_password: "not the old one", new_password: "new password" });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.code).toBe("PASSWORD_CONFIRMATION_MISMATCH");
    const tooShort = await update({ old_password: "old password", new_password: "short" });
    expect(tooShort.body).toMatchObject({ code: "PASSWORD_TOO_SHORT", details: { min_length: 8 } });
    expect((await refresh(project, first.refresh_token)).status).toBe(200);

    const changed = await update({ old_password: "old password", new_password: "new password" });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true });
    expect((await refresh(project, first.refresh_token)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect((await refresh(project, second.refresh_token)).status).toBe(200);
    expect((await signIn(project, { email: address, password: "old password" })).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect((await signIn(project, { email: address, password: "new password" })).status).toBe(200);
  });

  it("needs a signed-in user with a password", async () => {
    const project = await createTestProject(server);
    const anonymous = await post(project, "/auth/password/update", { old_password: "old password", new_password: "new password" });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.code).toBe("SCHEMA_ERROR");
    expect(anonymous.body.error).toBe("Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined");

    const guest = (await post(project, "/auth/anonymous/sign-up", undefined)).body;
    const noPassword = await post(project, "/auth/password/update", { old_password: "old password", new_password: "new password" }, {
      "x-stack-access-token": guest.access_token,
      "x-stack-allow-anonymous-user": "true",
    });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.code).toBe("USER_DOES_NOT_HAVE_PASSWORD");
  });

  it("sets a first password for a user without one, once", async () => {
    const project = await createTestProject(server);
    const row = (await findProject(server.db, project.projectId))!;
    const address = email();
    const user = await createUser(server.db, row, { primaryEmail: address, primaryEmailAuthEnabled: true });
    const session = await api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id: user.id } });
    const set = (password: string) => post(project, "/auth/password/set", { password }, { "x-stack-access-token": session.body.access_token });

    expect((await set("short")).body.code).toBe("PASSWORD_TOO_SHORT");
    const first = await set("first password");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true });
    expect((await signIn(project, { email: address, password: "first password" })).status).toBe(200);

    const again = await set("second password");
    expect(again.status).toBe(400);
    expect(again.text).toBe("User already has a password set.");
    expect((await signIn(project, { email: address, password: "first password" })).status).toBe(200);
  });
});
