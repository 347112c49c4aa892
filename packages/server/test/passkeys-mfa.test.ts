import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { expectKnownError, expectOk, getMe, passkeyProject, registerPasskey, signedInUser, signInWithPasskey } from "./support/passkey-fixture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { server, useServerForFile } from "./support/users-fixture.js";

// A passkey is one factor like any other (SPEC.md §4 "MFA"): a user with TOTP turned on who signs in with a
// passkey still has to give a code from their authenticator app.
useServerForFile();

describe("passkey sign-in with multi-factor authentication", () => {
  it("asks a TOTP user for their code after the passkey, and signs them in with it", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const secret = new Uint8Array(randomBytes(20));
    const enabled = await api(server.url, "/users/me", {
      method: "PATCH",
      headers: { ...project.headers("client"), "x-stack-access-token": user.tokens.access_token },
      body: { totp_secret_base64: Buffer.from(secret).toString("base64") },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);

    const first = await signInWithPasskey(project, authenticator);
    expectKnownError(first, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
    const attemptCode = first.body.details.attempt_code;
    // The assertion was spent even though no session was made yet: its counter is stored.
    const stored = await server.db.selectFrom("passkey_credentials").select("counter").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(1);

    const totp = new TOTP({ secret: new Secret({ buffer: secret.buffer }), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    const finished = await api(server.url, "/auth/mfa/sign-in", { method: "POST", headers: project.headers("client"), body: { type: "totp", totp, code: attemptCode } });
    expectOk(finished);
    expect(finished.body.user_id).toBe(user.id);
    expect((await getMe(project, finished.body)).body.id).toBe(user.id);
  });
});
