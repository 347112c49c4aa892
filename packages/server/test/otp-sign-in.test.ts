import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_ATTEMPTS, SEND_LIMIT } from "../src/services/verification-codes.js";
import { api } from "./support/api.js";
import {
  codeIn,
  configure,
  email,
  emailProject,
  expectKnownError,
  expectNoMailTo,
  getMe,
  linkIn,
  MAGIC_LINK_CALLBACK,
  post,
  refresh,
  server,
  signUpWithPassword,
  smtp,
  tally,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";

useServerAndSmtpForFile();

/** Asks for a sign-in code and reads the mail: the nonce answered, the OTP in the subject, the link's code. */
async function requestCode(project: TestProject, address: string) {
  const sent = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect(Object.keys(sent.body)).toEqual(["nonce"]);
  const message = await smtp.nextMessage(address);
  const otp = message.subject.match(/Your code is ([0-9A-Z]{6})$/)?.[1];
  expect(otp, message.subject).toBeDefined();
  return { nonce: sent.body.nonce as string, otp: otp!, message, linkCode: codeIn(message) };
}

async function verifiedUser(project: TestProject, address: string): Promise<string> {
  const created = await api(server.url, "/users", {
    method: "POST",
    headers: project.headers("server"),
    body: { primary_email: address, primary_email_verified: true, primary_email_auth_enabled: true },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

const signIn = (project: TestProject, code: string) => post(project, "/auth/otp/sign-in", { code });

describe("OTP / magic-link sign-in", () => {
  it("signs up a new email by following the link: a new user, email verified, with a personal team", async () => {
    const project = await emailProject({ "teams.createPersonalTeamOnSignUp": true });
    const address = email();
    const { nonce, otp, message, linkCode } = await requestCode(project, address);
    expect(nonce).toHaveLength(39);
    expect(message.subject).toBe(`Sign in to Mail Flows: Your code is ${otp}`);
    expect(message.text).toContain(otp);
    const link = linkIn(message);
    expect(link.origin + link.pathname).toBe(MAGIC_LINK_CALLBACK);
    expect(linkCode).toBe(otp.toLowerCase() + nonce);

    const checked = await post(project, "/auth/otp/sign-in/check-code", { code: linkCode });
    expect(checked.body).toEqual({ is_code_valid: true });

    const response = await signIn(project, linkCode);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(response.body.is_new_user).toBe(true);
    const me = await getMe(project, response.body);
    expect(me.body).toMatchObject({ id: response.body.user_id, primary_email: address, primary_email_verified: true, otp_auth_enabled: true, has_password: false });
    expect(me.body.selected_team_id).toEqual(expect.any(String));
    expect((await refresh(project, response.body.refresh_token)).status).toBe(200);
  });

  it("signs in an existing verified user with the typed code (any case) followed by the nonce", async () => {
    const project = await emailProject();
    const address = email();
    const userId = await verifiedUser(project, address);
    const first = await requestCode(project, address);
    const typedUpper = await signIn(project, first.otp + first.nonce);
    expect(typedUpper.status, JSON.stringify(typedUpper.body)).toBe(200);
    expect(typedUpper.body).toMatchObject({ user_id: userId, is_new_user: false });
    expect((await getMe(project, typedUpper.body)).body.otp_auth_enabled).toBe(true);

    const second = await requestCode(project, address);
    const typedLower = await signIn(project, second.otp.toLowerCase() + second.nonce);
    expect(typedLower.body).toMatchObject({ user_id: userId, is_new_user: false });
  });

  it("lets exactly one of 16 concurrent sign-ins with one code win, creating one user", async () => {
    const project = await emailProject();
    const address = email();
    const { linkCode } = await requestCode(project, address);
    const results = await Promise.all(Array.from({ length: 16 }, () => signIn(project, linkCode)));
    expect(tally(results)).toEqual({ ok: 1, VERIFICATION_CODE_ALREADY_USED: 15 });
    const users = await server.db.selectFrom("users").select("id").where("project_id", "=", project.projectId).execute();
    expect(users).toHaveLength(1);
  });

  it("signs both in when two codes for one new email are used at the same moment, creating one user", async () => {
    const project = await emailProject();
    const address = email();
    const first = await requestCode(project, address);
    const second = await requestCode(project, address);
    const [a, b] = await Promise.all([signIn(project, first.linkCode), signIn(project, second.linkCode)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.user_id).toBe(b.body.user_id);
    expect([a.body.is_new_user, b.body.is_new_user].sort()).toEqual([false, true]);
  });

  it("counts wrong typed codes: after the limit even the right code is dead", async () => {
    const project = await emailProject();
    const address = email();
    const { otp, nonce } = await requestCode(project, address);
    const wrong = (otp[0] === "A" ? "B" : "A") + otp.slice(1);
    expectKnownError(await signIn(project, wrong + nonce), "VERIFICATION_CODE_NOT_FOUND", 404);
    for (let i = 1; i < DEFAULT_MAX_ATTEMPTS; i++) await signIn(project, wrong + nonce);
    expectKnownError(await signIn(project, otp + nonce), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
    expectKnownError(await post(project, "/auth/otp/sign-in/check-code", { code: otp + nonce }), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
  });

  it("refuses used, expired and unknown codes", async () => {
    const project = await emailProject();
    const address = email();
    const used = await requestCode(project, address);
    expect((await signIn(project, used.linkCode)).status).toBe(200);
    expectKnownError(await signIn(project, used.linkCode), "VERIFICATION_CODE_ALREADY_USED", 409);

    const expired = await requestCode(project, address);
    await server.db.updateTable("verification_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).execute();
    expectKnownError(await signIn(project, expired.linkCode), "VERIFICATION_CODE_EXPIRED", 400);
    expectKnownError(await signIn(project, "0".repeat(45)), "VERIFICATION_CODE_NOT_FOUND", 404);
    const malformed = await signIn(project, expired.otp);
    expectKnownError(malformed, "SCHEMA_ERROR", 400);
    expect(malformed.body.error).toContain("body.code must be exactly 45 characters");
  });

  it("answers 403 when OTP sign-in is off, at send and at sign-in", async () => {
    const project = await emailProject();
    const address = email();
    const { linkCode } = await requestCode(project, address);
    await configure(project, { "auth.otp.allowSignIn": false });
    const send = await post(project, "/auth/otp/send-sign-in-code", { email: email(), callback_url: MAGIC_LINK_CALLBACK });
    expect(send.status).toBe(403);
    expect(send.text).toBe("OTP sign-in is not enabled for this project");
    const signInOff = await signIn(project, linkCode);
    expect(signInOff.status).toBe(403);
    // Turned back on, the code was never used.
    await configure(project, { "auth.otp.allowSignIn": true });
    expect((await signIn(project, linkCode)).status).toBe(200);
  });

  it("refuses a new email when sign-up is off, but signs in existing users", async () => {
    const project = await emailProject();
    const newcomer = email();
    const pending = await requestCode(project, newcomer);
    const existing = email();
    const userId = await verifiedUser(project, existing);
    await configure(project, { "auth.allowSignUp": false });

    expectKnownError(await post(project, "/auth/otp/send-sign-in-code", { email: email(), callback_url: MAGIC_LINK_CALLBACK }), "SIGN_UP_NOT_ENABLED", 400);
    // A code sent while sign-up was on does not sign anyone up once it is off.
    expectKnownError(await signIn(project, pending.linkCode), "SIGN_UP_NOT_ENABLED", 400);
    const { linkCode } = await requestCode(project, existing);
    expect((await signIn(project, linkCode)).body).toMatchObject({ user_id: userId, is_new_user: false });
  });

  it("refuses an account whose email is not verified, as the protocol does", async () => {
    const project = await emailProject();
    const address = email();
    await signUpWithPassword(project, address, "a-password-1");
    const response = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK });
    expectKnownError(response, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(response.body.details).toEqual({ email: address, would_work_if_email_was_verified: true });
    await expectNoMailTo(address);
  });

  it("refuses an untrusted callback URL before sending anything", async () => {
    const project = await emailProject();
    const address = email();
    const response = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: "https://app.example.com.evil.example/handler/magic-link-callback" });
    expectKnownError(response, "REDIRECT_URL_NOT_WHITELISTED", 400);
    await expectNoMailTo(address);
  });

  it("throttles sends per address with a 429", async () => {
    const project = await emailProject();
    const address = email();
    for (let i = 0; i < SEND_LIMIT; i++) {
      expect((await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK })).status).toBe(200);
    }
    const refused = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK });
    expect(refused.status).toBe(429);
    // Every code sent before the limit still works.
    const firstMail = await smtp.nextMessage(address);
    expect((await signIn(project, codeIn(firstMail))).status).toBe(200);
  });
});
