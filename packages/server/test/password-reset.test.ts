import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { SEND_LIMIT } from "../src/services/verification-codes.js";
import {
  codeIn,
  configure,
  email,
  emailProject,
  expectKnownError,
  expectNoMailTo,
  linkIn,
  post,
  refresh,
  RESET_CALLBACK,
  server,
  signUpWithPassword,
  smtp,
  tally,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";

useServerAndSmtpForFile();

const OLD_PASSWORD = "old-password-1";
const NEW_PASSWORD = "new-password-2";
const MAYBE = { success: "maybe, only if user with e-mail exists" };

/** A project with a password user; the reset mail for them has been requested and received. */
async function userWithResetMail() {
  const project = await emailProject();
  const address = email();
  const session = await signUpWithPassword(project, address, OLD_PASSWORD);
  const sent = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect(sent.body).toEqual(MAYBE);
  const message = await smtp.nextMessage(address);
  return { project, address, session, message, code: codeIn(message) };
}

const signIn = (project: Awaited<ReturnType<typeof emailProject>>, address: string, password: string) =>
  post(project, "/auth/password/sign-in", { email: address, password });

describe("password reset", () => {
  it("mails a reset link; following it sets the new password and ends every old session", async () => {
    const { project, address, session, message, code } = await userWithResetMail();
    expect(message.subject).toBe("Reset your password at Mail Flows");
    const link = linkIn(message);
    expect(link.origin + link.pathname).toBe(RESET_CALLBACK);
    expect(code).toHaveLength(45);
    const secondSession = (await signIn(project, address, OLD_PASSWORD)).body;
    expect((await refresh(project, session.refresh_token)).status).toBe(200);

    const checked = await post(project, "/auth/password/reset/check-code", { code });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ is_code_valid: true });

    const reset = await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toEqual({ success: true });

    expect((await signIn(project, address, NEW_PASSWORD)).status).toBe(200);
    expectKnownError(await signIn(project, address, OLD_PASSWORD), "EMAIL_PASSWORD_MISMATCH", 400);
    for (const old of [session, secondSession]) expectKnownError(await refresh(project, old.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("gives a password to an account that signed up by code", async () => {
    const project = await emailProject();
    const address = email();
    await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: RESET_CALLBACK });
    const signedUp = await post(project, "/auth/otp/sign-in", { code: codeIn(await smtp.nextMessage(address)) });
    expect(signedUp.body.is_new_user).toBe(true);
    expect((await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK })).status).toBe(200);
    const code = codeIn(await smtp.nextMessage(address));
    expect((await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD })).status).toBe(200);
    expect((await signIn(project, address, NEW_PASSWORD)).body.user_id).toBe(signedUp.body.user_id);
    expectKnownError(await refresh(project, signedUp.body.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("uses a code once: check-code and reset after a reset say it was used", async () => {
    const { project, code } = await userWithResetMail();
    expect((await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD })).status).toBe(200);
    expectKnownError(await post(project, "/auth/password/reset/check-code", { code }), "VERIFICATION_CODE_ALREADY_USED", 409);
    expectKnownError(await post(project, "/auth/password/reset", { code, password: "another-password" }), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("lets exactly one of 16 concurrent resets with one code win", async () => {
    const { project, address, code } = await userWithResetMail();
    const passwords = Array.from({ length: 16 }, (_, i) => `racing-password-${i}`);
    const results = await Promise.all(passwords.map((password) => post(project, "/auth/password/reset", { code, password })));
    expect(tally(results)).toEqual({ ok: 1, VERIFICATION_CODE_ALREADY_USED: 15 });
    const winner = passwords[results.findIndex((r) => r.status === 200)]!;
    expect((await signIn(project, address, winner)).status).toBe(200);
    const loser = passwords.find((p) => p !== winner)!;
    expectKnownError(await signIn(project, address, loser), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("answers an unknown email exactly like a known one and sends nothing", async () => {
    const project = await emailProject();
    const address = email();
    const response = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(MAYBE);
    await expectNoMailTo(address);
  });

  it("throttles sends per address, for unknown addresses exactly as for known ones", async () => {
    const project = await emailProject();
    const known = email();
    await signUpWithPassword(project, known, OLD_PASSWORD);
    const unknown = email();
    for (const address of [known, unknown]) {
      for (let i = 0; i < SEND_LIMIT; i++) {
        expect((await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK })).status).toBe(200);
      }
      const refused = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain("Too many emails");
    }
    // Another address is not affected.
    expect((await post(project, "/auth/password/send-reset-code", { email: email(), callback_url: RESET_CALLBACK })).status).toBe(200);
  });

  it("says in Retry-After when the per-address limit lets the next send through", async () => {
    const project = await emailProject();
    const address = email();
    const send = () => post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
    for (let i = 0; i < SEND_LIMIT; i++) expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    // The oldest send was made a moment ago: it leaves the 10-minute window in just under 600 s.
    const fresh = Number(refused.headers.get("retry-after"));
    expect(fresh).toBeGreaterThan(540);
    expect(fresh).toBeLessThanOrEqual(600);
    expect(refused.text).toContain(`try again in ${fresh} seconds`);
    // Once the oldest is 9½ minutes old, about 30 s are left.
    await sql`update verification_codes set created_at = now() - interval '570 seconds'
      where id = (select id from verification_codes where project_id = ${project.projectId} and email = ${address.toLowerCase()} order by created_at limit 1)`.execute(server.db);
    const aged = Number((await send()).headers.get("retry-after"));
    expect(aged).toBeGreaterThanOrEqual(25);
    expect(aged).toBeLessThanOrEqual(31);
    // Waiting that long is enough: the next send goes through.
    await sql`update verification_codes set created_at = created_at - make_interval(secs => ${aged}) where project_id = ${project.projectId}`.execute(server.db);
    expect((await send()).status).toBe(200);
    // Eight sends to an address without an account, each answered after a wait drawn from real sends' durations,
    // which take seconds apiece on a loaded machine.
  }, 120_000);

  it("refuses an untrusted callback URL for known and unknown emails alike, before sending", async () => {
    const project = await emailProject();
    const known = email();
    await signUpWithPassword(project, known, OLD_PASSWORD);
    for (const address of [known, email()]) {
      const response = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: "https://evil.example/handler/password-reset" });
      expectKnownError(response, "REDIRECT_URL_NOT_WHITELISTED", 400);
    }
    await expectNoMailTo(known);
  });

  it("refuses unknown, malformed and wrong-project codes", async () => {
    const { project, code } = await userWithResetMail();
    const other = await emailProject();
    const unknown = "a".repeat(45);
    expectKnownError(await post(project, "/auth/password/reset/check-code", { code: unknown }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await post(project, "/auth/password/reset", { code: unknown, password: NEW_PASSWORD }), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await post(other, "/auth/password/reset", { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_NOT_FOUND", 404);
    const short = await post(project, "/auth/password/reset", { code: "abc", password: NEW_PASSWORD });
    expectKnownError(short, "SCHEMA_ERROR", 400);
    expect(short.body.error).toContain("body.code must be exactly 45 characters");
    // The real code still works afterwards.
    expect((await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("does not accept another flow's code (an OTP sign-in code is not a reset code)", async () => {
    const project = await emailProject();
    const address = email();
    await signUpWithPassword(project, address, OLD_PASSWORD);
    await server.db.updateTable("contact_channels").set({ is_verified: true }).where("value", "=", address).execute();
    const sent = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: RESET_CALLBACK });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const code = codeIn(await smtp.nextMessage(address));
    expectKnownError(await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("refuses an expired code", async () => {
    const { project, code } = await userWithResetMail();
    await server.db.updateTable("verification_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).execute();
    expectKnownError(await post(project, "/auth/password/reset/check-code", { code }), "VERIFICATION_CODE_EXPIRED", 400);
    expectKnownError(await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD }), "VERIFICATION_CODE_EXPIRED", 400);
  });

  it("keeps the code and the old password when the new password is refused", async () => {
    const { project, address, session, code } = await userWithResetMail();
    const tooShort = await post(project, "/auth/password/reset", { code, password: "short" });
    expectKnownError(tooShort, "PASSWORD_TOO_SHORT", 400);
    expectKnownError(await post(project, "/auth/password/reset", { code, password: "x".repeat(71) }), "PASSWORD_TOO_LONG", 400);
    expect((await signIn(project, address, OLD_PASSWORD)).status).toBe(200);
    expect((await refresh(project, session.refresh_token)).status).toBe(200);
    expect((await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("refuses every step when password sign-in is off", async () => {
    const { project, address, code } = await userWithResetMail();
    await configure(project, { "auth.password.allowSignIn": false });
    expectKnownError(
      await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      400,
    );
    expectKnownError(await post(project, "/auth/password/reset", { code, password: NEW_PASSWORD }), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
  });

  it("validates the bodies with the protocol's schema errors", async () => {
    const project = await emailProject();
    const noEmail = await post(project, "/auth/password/send-reset-code", { callback_url: RESET_CALLBACK });
    expectKnownError(noEmail, "SCHEMA_ERROR", 400);
    expect(noEmail.body.error).toContain("body.email must be defined");
    const badEmail = await post(project, "/auth/password/send-reset-code", { email: "not-an-email", callback_url: RESET_CALLBACK });
    expect(badEmail.body.error).toContain("body.email must be a valid email");
    const badUrl = await post(project, "/auth/password/send-reset-code", { email: email(), callback_url: "not a url" });
    expectKnownError(badUrl, "SCHEMA_ERROR", 400);
    const noPassword = await post(project, "/auth/password/reset", { code: "a".repeat(45) });
    expect(noPassword.body.error).toContain("body.password must be defined");
  });
});
