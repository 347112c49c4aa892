import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import * as passkeys from "./support/passkey-fixture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import type { TestProject } from "./support/test-server.js";
import { afterTheWait, expectRefused, failTimes, untilRefusedFor } from "./support/throttle.js";
import { useServerForFile } from "./support/users-fixture.js";
import { PRODUCTION } from "./support/test-server.js";

// Issue 17: brute-force limits beyond password sign-in (services/auth-throttle.ts) — one-time codes, TOTP codes,
// passkeys, CLI codes, secret keys, and mail sends. Every test works on a project of its own, and counters are
// per project, so the many requests from 127.0.0.1 here and in other suites never add up. The servers run in
// production mode: in dev mode loopback clients are not counted per address (rate-limit-exemptions.test.ts).
const { email, emailProject, MAGIC_LINK_CALLBACK, RESET_CALLBACK, post, signUpWithPassword } = emailFlow;
emailFlow.useServerAndSmtpForFile(PRODUCTION);
// The passkey fixture's own server.
useServerForFile(PRODUCTION);

const PASSWORD = "correct horse battery";
/** A well-formed code that was never issued. */
const unknownCode = () => randomBytes(23).toString("hex").slice(0, 45);

describe("one-time sign-in codes", () => {
  it("make a client address wait after 50 wrong codes, even for a real code; its password sign-in is not slowed", async () => {
    const project = await emailProject();
    const passwordUser = email();
    await signUpWithPassword(project, passwordUser, PASSWORD);
    const address = email();
    expect((await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK })).status).toBe(200);
    const realCode = emailFlow.codeIn(emailFlow.smtp.messages.find((m) => m.to.includes(address))!);

    // Guessing by sign-in and by check-code counts alike.
    await failTimes(50, "VERIFICATION_CODE_NOT_FOUND", (i) => post(project, i % 2 ? "/auth/otp/sign-in" : "/auth/otp/sign-in/check-code", { code: unknownCode() }));
    expectRefused(await post(project, "/auth/otp/sign-in", { code: realCode }), 1);
    expect((await post(project, "/auth/password/sign-in", { email: passwordUser, password: PASSWORD })).status).toBe(200);
    const signedIn = await afterTheWait(() => post(project, "/auth/otp/sign-in", { code: realCode }));
    expect(signedIn.status, signedIn.text).toBe(200);
  });
});

describe("TOTP codes", () => {
  const authenticatorCode = (secret: Uint8Array) =>
    new TOTP({ secret: new Secret({ buffer: new Uint8Array(secret).buffer }), algorithm: "SHA1", digits: 6, period: 30 }).generate();
  const attemptCode = async (project: TestProject, address: string) => {
    const first = await post(project, "/auth/password/sign-in", { email: address, password: PASSWORD });
    expect(first.body.code, first.text).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    return first.body.details.attempt_code as string;
  };
  const mfaSignIn = (project: TestProject, attempt: string, totp: string) => post(project, "/auth/mfa/sign-in", { type: "totp", totp, code: attempt });

  it("are counted per user across attempt codes, so signing in with the password again does not start the count over", async () => {
    const project = await emailProject();
    const address = email();
    const tokens = await signUpWithPassword(project, address, PASSWORD);
    const secret = new Uint8Array(randomBytes(20));
    const enabled = await api(emailFlow.server.url, "/users/me", {
      method: "PATCH",
      headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token },
      body: { totp_secret_base64: Buffer.from(secret).toString("base64") },
    });
    expect(enabled.status, enabled.text).toBe(200);
    const wrong = authenticatorCode(secret) === "000000" ? "111111" : "000000";

    // Each attempt code dies after 5 wrong codes (mfa.test.ts); the user's count goes on over the next one.
    for (let i = 0; i < 2; i++) {
      const attempt = await attemptCode(project, address);
      await failTimes(5, "INVALID_TOTP_CODE", () => mfaSignIn(project, attempt, wrong));
    }
    // The tenth wrong code made the user's next TOTP attempt wait, even with the right code.
    const third = await attemptCode(project, address);
    expectRefused(await mfaSignIn(project, third, authenticatorCode(secret)), 1);
    const signedIn = await afterTheWait(() => mfaSignIn(project, third, authenticatorCode(secret)));
    expect(signedIn.status, signedIn.text).toBe(200);
  });
});

describe("passkey sign-in", () => {
  it("makes a client address wait after 50 failed sign-ins, even with a good passkey", async () => {
    const project = await passkeys.passkeyProject();
    const user = await passkeys.signedInUser(project);
    const replaced = new SoftwareAuthenticator();
    const current = new SoftwareAuthenticator();
    passkeys.expectOk(await passkeys.registerPasskey(project, user, replaced));
    passkeys.expectOk(await passkeys.registerPasskey(project, user, current));
    await failTimes(50, "PASSKEY_AUTHENTICATION_FAILED", () => passkeys.signInWithPasskey(project, replaced));
    expectRefused(await passkeys.signInWithPasskey(project, current), 1);
    passkeys.expectOk(await afterTheWait(() => passkeys.signInWithPasskey(project, current)));
  });
});

describe("CLI login codes", () => {
  it("make a client address wait after 50 unknown polling or login codes; polling a real code costs nothing", async () => {
    const project = await emailProject();
    const started = await post(project, "/auth/cli", {});
    expect(started.status, started.text).toBe(200);
    const poll = (code: string) => post(project, "/auth/cli/poll", { polling_code: code });
    for (let i = 0; i < 60; i++) expect((await poll(started.body.polling_code)).body).toEqual({ status: "waiting" });

    const person = await signUpWithPassword(project, email(), PASSWORD);
    await failTimes(50, "INVALID_POLLING_CODE", (i) =>
      i % 2 ? poll(unknownCode()) : post(project, "/auth/cli/complete", { login_code: unknownCode(), refresh_token: person.refresh_token }).then(asInvalidLoginCode),
    );
    expectRefused(await poll(started.body.polling_code), 1);
    expect((await afterTheWait(() => poll(started.body.polling_code))).body).toEqual({ status: "waiting" });
  });

  /** The plain 400 of an unknown login code, under the polling error's name, so one loop checks both. */
  function asInvalidLoginCode(response: ApiResponse): ApiResponse {
    expect(response.status, response.text).toBe(400);
    expect(response.text).toBe("Invalid login code or the code has expired");
    return { ...response, body: { code: "INVALID_POLLING_CODE" } };
  }
});

describe("secret keys", () => {
  it("make a client address wait after 50 wrong server or admin keys, even for the right key; the publishable key is no secret", async () => {
    const project = await emailProject();
    const withKey = (access: "server" | "admin", key: string) =>
      api(emailFlow.server.url, "/users", { headers: { ...project.headers(access), [`x-stack-${access === "server" ? "secret-server" : "super-secret-admin"}-key`]: key } });
    await failTimes(50, "INVALID_SECRET_SERVER_KEY", (i) => (i % 2 ? withKey("server", `ssk_wrong${i}`) : withKey("admin", `sak_wrong${i}`)).then(asServerKeyError));
    expectRefused(await withKey("server", project.secretServerKey), 1);
    expectRefused(await withKey("admin", project.superSecretAdminKey), 1);
    expect((await api(emailFlow.server.url, "/projects/current", { headers: project.headers("client") })).status).toBe(200);
    expect((await afterTheWait(() => withKey("server", project.secretServerKey))).status).toBe(200);
  });

  /** The admin key's error under the server key's name, so one loop checks both. */
  function asServerKeyError(response: ApiResponse): ApiResponse {
    const code = response.body?.code === "INVALID_SUPER_SECRET_ADMIN_KEY" ? "INVALID_SECRET_SERVER_KEY" : response.body?.code;
    return { ...response, body: { ...response.body, code } };
  }
});

describe("mail sends", () => {
  const SENT = "Too many emails requested";

  it("are limited per client address across routes, with the same answer for existing and unknown addresses", async () => {
    const project = await emailProject();
    const known = email();
    await signUpWithPassword(project, known, PASSWORD);
    for (let i = 0; i < 30; i++) {
      const sent = await post(project, "/auth/otp/send-sign-in-code", { email: email(), callback_url: MAGIC_LINK_CALLBACK });
      expect(sent.status, `send ${i + 1}: ${sent.text}`).toBe(200);
    }
    const reset = (address: string) => post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
    expectRefused(await reset(known), 1, SENT);
    // Each send after a wait doubles it, so the block grows until an unknown address is refused with seconds to
    // spare; the pair sent then falls in that block however slow the machine is.
    expect((await afterTheWait(() => reset(email()))).status).toBe(200);
    await untilRefusedFor(3, () => reset(email()));
    const [forKnown, forUnknown] = await Promise.all([reset(known), reset(email())]);
    for (const refused of [forKnown, forUnknown]) expectRefused(refused, Number(refused.headers.get("retry-after")), SENT);
    expect(forKnown.status).toBe(429);
    expect(Math.abs(Number(forKnown.headers.get("retry-after")) - Number(forUnknown.headers.get("retry-after")))).toBeLessThanOrEqual(1);
    expect(emailFlow.smtp.messages.filter((m) => m.to.includes(known))).toEqual([]);

    // An app's backend (server key) sends for all of its users from one address: not counted against it.
    expect((await post(project, "/auth/password/send-reset-code", { email: known, callback_url: RESET_CALLBACK }, { access: "server" })).status).toBe(200);
  });

  it("count verification mails a signed-in client asks for", async () => {
    const project = await emailProject();
    const tokens = await signUpWithPassword(project, email(), PASSWORD);
    const channels = await api(emailFlow.server.url, "/contact-channels?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token } });
    const channel = channels.body.items[0];
    const send = () => post(project, "/auth/otp/send-sign-in-code", { email: email(), callback_url: MAGIC_LINK_CALLBACK });
    for (let i = 0; i < 30; i++) expect((await send()).status).toBe(200);
    // The first block is a second long, which a loaded machine can spend before the resend is answered: sends after
    // each wait double it until it has seconds to spare (as above).
    await untilRefusedFor(3, send);
    const resend = await post(project, `/contact-channels/me/${channel.id}/send-verification-code`, { callback_url: RESET_CALLBACK }, { tokens });
    expectRefused(resend, Number(resend.headers.get("retry-after")), SENT);
  });
});
