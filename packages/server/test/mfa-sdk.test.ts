import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { email, emailProject, post, server, TRUSTED_ORIGIN, useServerAndSmtpForFile } from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack SDK (@stackframe/js@2.8.41), unchanged, with a user who turns on TOTP MFA: it sends the
// secret as `totp_secret_base64`, reads `requires_totp_mfa`, gets MULTI_FACTOR_AUTHENTICATION_REQUIRED back from
// a password sign-in and finishes with `signInWithMfa`.
useServerAndSmtpForFile();

const clientApp = (project: TestProject) => stackSdk(server, project).client();
const PASSWORD = "correct horse battery";

function authenticatorCode(secret: Uint8Array): string {
  return new TOTP({ secret: new Secret({ buffer: new Uint8Array(secret).buffer }), algorithm: "SHA1", digits: 6, period: 30 }).generate();
}

describe("the published Stack SDK with TOTP MFA", () => {
  it("turns MFA on, is asked for it at sign-in, and signs in with the authenticator's code", async () => {
    const project = await emailProject();
    const address = email();
    const app = clientApp(project);
    expect((await app.signUpWithCredential({ email: address, password: PASSWORD, noRedirect: true, verificationCallbackUrl: `${TRUSTED_ORIGIN}/handler/email-verification` })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user.isMultiFactorRequired).toBe(false);
    const secret = new Uint8Array(randomBytes(20));
    await user.update({ totpMultiFactorSecret: secret });
    expect((await app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);
    await user.signOut();

    // The SDK recognises the error and goes to its MFA page (keeping the attempt code in the browser's session
    // storage); with no browser to redirect, it reports that it could not redirect.
    const signIn = await app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true }).catch((error: unknown) => error);
    expect(String(signIn)).toContain("redirectToMfa");
    expect(await app.getUser()).toBeNull();
    // The MFA page's attempt code, as the same request gives it.
    const first = await post(project, "/auth/password/sign-in", { email: address, password: PASSWORD });
    const attemptCode: string = first.body.details.attempt_code;

    const wrong = await app.signInWithMfa("000000" === authenticatorCode(secret) ? "111111" : "000000", attemptCode, { noRedirect: true });
    expect(wrong.status === "error" && wrong.error.errorCode).toBe("INVALID_TOTP_CODE");
    const finished = await app.signInWithMfa(authenticatorCode(secret), attemptCode, { noRedirect: true });
    expect(finished.status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });
});
