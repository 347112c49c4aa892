import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import {
  codeIn,
  email,
  emailProject,
  expectKnownError,
  getMe,
  MAGIC_LINK_CALLBACK,
  post,
  refresh,
  server,
  signUpWithPassword,
  smtp,
  tally,
  type Tokens,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";

// TOTP multi-factor sign-in (issue 8, SPEC §4 "MFA"): a user with a TOTP secret who signs in by password or
// one-time code gets MULTI_FACTOR_AUTHENTICATION_REQUIRED, and `POST /auth/mfa/sign-in` with a code from their
// authenticator app finishes it, once per code.
useServerAndSmtpForFile();

const PASSWORD = "correct horse battery";

/** What an authenticator app computes from the secret the user scanned: the code of now (+ `stepsAhead` steps). */
function authenticatorCode(secret: Uint8Array, stepsAhead = 0): string {
  const totp = new TOTP({ secret: new Secret({ buffer: new Uint8Array(secret).buffer }), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** A code that the app shows for none of the accepted steps (now ± 1). */
function wrongCode(secret: Uint8Array): string {
  const accepted = new Set([-1, 0, 1].map((steps) => authenticatorCode(secret, steps)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!accepted.has(candidate)) return candidate;
  }
}

async function enableMfa(project: TestProject, tokens: Tokens, secret: Uint8Array | null): Promise<void> {
  const response = await api(server.url, "/users/me", {
    method: "PATCH",
    headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token },
    body: { totp_secret_base64: secret === null ? null : Buffer.from(secret).toString("base64") },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** A project and a password user with MFA turned on. */
async function userWithMfa() {
  const project = await emailProject();
  const address = email();
  const signedUp = await signUpWithPassword(project, address, PASSWORD);
  const secret = new Uint8Array(randomBytes(20));
  await enableMfa(project, signedUp, secret);
  return { project, address, secret, userId: signedUp.user_id, tokens: signedUp as Tokens };
}

const passwordSignIn = (project: TestProject, address: string) => post(project, "/auth/password/sign-in", { email: address, password: PASSWORD });
const mfaSignIn = (project: TestProject, attemptCode: string, totp: string) => post(project, "/auth/mfa/sign-in", { type: "totp", totp, code: attemptCode });

/** The attempt code of a first factor that now needs the second. */
function attemptCodeOf(response: ApiResponse): string {
  expectKnownError(response, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
  expect(response.body.error).toBe("Multi-factor authentication is required for this user.");
  expect(response.body.details.attempt_code).toMatch(/^[0-9a-z]{45}$/);
  return response.body.details.attempt_code;
}

describe("MFA after a password", () => {
  it("asks for the second factor instead of signing in, then signs in with the authenticator's code", async () => {
    const { project, address, secret, userId, tokens } = await userWithMfa();
    expect((await getMe(project, tokens)).body.requires_totp_mfa).toBe(true);

    const first = await passwordSignIn(project, address);
    expect(first.body.access_token).toBeUndefined();
    const signedIn = await mfaSignIn(project, attemptCodeOf(first), authenticatorCode(secret));
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(Object.keys(signedIn.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(signedIn.body).toMatchObject({ user_id: userId, is_new_user: false });
    expect((await getMe(project, signedIn.body)).body.id).toBe(userId);
    expect((await refresh(project, signedIn.body.refresh_token)).status).toBe(200);
  });

  it("refuses a wrong code and still takes the right one with the same attempt code", async () => {
    const { project, address, secret } = await userWithMfa();
    const attempt = attemptCodeOf(await passwordSignIn(project, address));
    const wrong = await mfaSignIn(project, attempt, wrongCode(secret));
    expectKnownError(wrong, "INVALID_TOTP_CODE", 400);
    expect(wrong.body.error).toBe("The TOTP code is invalid. Please try again.");
    expectKnownError(await mfaSignIn(project, attempt, "not a code"), "INVALID_TOTP_CODE", 400);
    expect((await mfaSignIn(project, attempt, authenticatorCode(secret))).status).toBe(200);
  });

  it("still refuses a wrong password without saying anything about MFA", async () => {
    const { project, address } = await userWithMfa();
    expectKnownError(await post(project, "/auth/password/sign-in", { email: address, password: "wrong password" }), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("signs in without a second factor once MFA is turned off with null", async () => {
    const { project, address, tokens } = await userWithMfa();
    await enableMfa(project, tokens, null);
    expect((await getMe(project, tokens)).body.requires_totp_mfa).toBe(false);
    const signedIn = await passwordSignIn(project, address);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.access_token).toBeTruthy();
  });

  it("lets a user who turned MFA off during the attempt finish it", async () => {
    const { project, address, tokens, userId } = await userWithMfa();
    const attempt = attemptCodeOf(await passwordSignIn(project, address));
    await enableMfa(project, tokens, null);
    const finished = await mfaSignIn(project, attempt, "000000");
    expect(finished.status).toBe(200);
    expect(finished.body.user_id).toBe(userId);
  });
});

describe("MFA after a one-time code", () => {
  /** Mails a sign-in code to `address` and returns the link's code, as the person clicks it. */
  async function mailedCode(project: TestProject, address: string): Promise<string> {
    const sent = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return codeIn(await smtp.nextMessage(address));
  }

  it("spends the mailed code, asks for the second factor, and signs in to the same account", async () => {
    const project = await emailProject();
    const address = email();
    const signedUp = await post(project, "/auth/otp/sign-in", { code: await mailedCode(project, address) });
    expect(signedUp.body.is_new_user).toBe(true);
    const secret = new Uint8Array(randomBytes(20));
    await enableMfa(project, signedUp.body, secret);

    const code = await mailedCode(project, address);
    const attempt = attemptCodeOf(await post(project, "/auth/otp/sign-in", { code }));
    // The first factor is used up, as in the protocol: the link cannot start a second attempt.
    expectKnownError(await post(project, "/auth/otp/sign-in", { code }), "VERIFICATION_CODE_ALREADY_USED", 409);
    const signedIn = await mfaSignIn(project, attempt, authenticatorCode(secret));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user_id: signedUp.body.user_id, is_new_user: false });
  });
});

describe("TOTP codes are accepted once", () => {
  it("refuses the same code for a second sign-in, and takes the next one", async () => {
    const { project, address, secret } = await userWithMfa();
    const code = authenticatorCode(secret);
    expect((await mfaSignIn(project, attemptCodeOf(await passwordSignIn(project, address)), code)).status).toBe(200);
    const second = attemptCodeOf(await passwordSignIn(project, address));
    expectKnownError(await mfaSignIn(project, second, code), "INVALID_TOTP_CODE", 400);
    // The app's next code (within the one step of clock drift allowed) is a new code.
    expect((await mfaSignIn(project, second, authenticatorCode(secret, 1))).status).toBe(200);
  });

  it("lets exactly one of several parallel sign-ins with the same code through", async () => {
    const { project, address, secret } = await userWithMfa();
    const attempts = await Promise.all(Array.from({ length: 4 }, async () => attemptCodeOf(await passwordSignIn(project, address))));
    const code = authenticatorCode(secret);
    const answers = await Promise.all(attempts.map((attempt) => mfaSignIn(project, attempt, code)));
    expect(tally(answers)).toEqual({ ok: 1, INVALID_TOTP_CODE: 3 });
  });

  it("uses an attempt code once", async () => {
    const { project, address, secret } = await userWithMfa();
    const attempt = attemptCodeOf(await passwordSignIn(project, address));
    expect((await mfaSignIn(project, attempt, authenticatorCode(secret))).status).toBe(200);
    expectKnownError(await mfaSignIn(project, attempt, authenticatorCode(secret, 1)), "VERIFICATION_CODE_ALREADY_USED", 409);
  });
});

describe("the attempt code", () => {
  it("dies after five wrong codes, even for the right one", async () => {
    const { project, address, secret } = await userWithMfa();
    const attempt = attemptCodeOf(await passwordSignIn(project, address));
    for (let i = 0; i < 5; i++) expectKnownError(await mfaSignIn(project, attempt, wrongCode(secret)), "INVALID_TOTP_CODE", 400);
    expectKnownError(await mfaSignIn(project, attempt, authenticatorCode(secret)), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
    // Signing in again starts a fresh attempt.
    expect((await mfaSignIn(project, attemptCodeOf(await passwordSignIn(project, address)), authenticatorCode(secret))).status).toBe(200);
  });

  it("is refused when unknown, from another project, or expired", async () => {
    const { project, address, secret } = await userWithMfa();
    expectKnownError(await mfaSignIn(project, "0".repeat(45), authenticatorCode(secret)), "VERIFICATION_CODE_NOT_FOUND", 404);
    const attempt = attemptCodeOf(await passwordSignIn(project, address));
    expectKnownError(await mfaSignIn(await emailProject(), attempt, authenticatorCode(secret)), "VERIFICATION_CODE_NOT_FOUND", 404);
    // Five minutes pass (the attempt code's lifetime): moved into the past rather than waited for.
    await server.db.updateTable("verification_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("purpose", "=", "mfa_sign_in").where("project_id", "=", project.projectId).execute();
    expectKnownError(await mfaSignIn(project, attempt, authenticatorCode(secret)), "VERIFICATION_CODE_EXPIRED", 400);
  });

  it("asks for the protocol's body", async () => {
    const { project } = await userWithMfa();
    const response = await post(project, "/auth/mfa/sign-in", { type: "sms", code: "x" });
    expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(response.body.error).toContain("body.type must be one of the following values: totp");
    expect(response.body.error).toContain("body.totp must be defined");
  });
});
