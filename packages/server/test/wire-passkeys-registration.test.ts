import { describe, expect, it } from "vitest";
import {
  APP_ORIGIN,
  expectKnownError,
  expectOk,
  passkeyPost,
  passkeyProject,
  signedInUser,
  signInWithPasskey,
} from "./support/passkey-fixture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { useServerForFile } from "./support/users-fixture.js";

// Passkey registration as the protocol's clients see it (issue 13 §4): the options, the free-form credential,
// the lenient client data, and the origin check that comes before everything else.
useServerForFile();

const EVIL_ORIGIN = "https://evil.example.net";
const ORIGIN_NOT_ALLOWED = "Passkey registration failed because the origin is not allowed";

/** Client data re-encoded as padded standard base64, as some clients send it. */
function asPaddedBase64(base64url: string): string {
  return Buffer.from(base64url, "base64url").toString("base64");
}

describe("passkey registration on the wire", () => {
  it("hands out registration options without a `hints` key", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    expectOk(initiated);
    expect(Object.keys(initiated.body)).toEqual(["options_json", "code"]);
    expect(initiated.body.options_json).not.toHaveProperty("hints");
    expect(initiated.body.options_json).toMatchObject({ rp: { id: "THIS_VALUE_WILL_BE_REPLACED.example.com" }, attestation: "none" });
  });

  it("accepts client data in padded standard base64, and the passkey then signs in", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    const credential = authenticator.register(initiated.body.options_json, { origin: APP_ORIGIN });
    const padded = asPaddedBase64(credential.response.clientDataJSON);
    expect(padded).toMatch(/[+/=]/);
    const registered = await passkeyPost(project, "/register", { credential: { ...credential, response: { ...credential.response, clientDataJSON: padded } }, code: initiated.body.code }, { tokens: user.tokens });
    expectOk(registered);
    expect(registered.body).toEqual({ user_handle: credential.id });
    expect((await signInWithPasskey(project, authenticator)).body.user_id).toBe(user.id);
  });

  it("takes the credential as free-form JSON: anything unusable is a registration failure, not a schema error", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    for (const credential of ["a string", 42, null, [], { id: "x" }, { response: { clientDataJSON: "!!!" } }]) {
      const response = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens });
      expectKnownError(response, "PASSKEY_REGISTRATION_FAILED", 400);
    }
    const missing = await passkeyPost(project, "/register", { code: initiated.body.code }, { tokens: user.tokens });
    expectKnownError(missing, "SCHEMA_ERROR", 400);
    expect(missing.body.error).toBe("Request validation failed on POST /api/v1/auth/passkey/register:\n  - body.credential must be defined");
    // Extra keys a newer browser library adds are fine; the code was not used up by the failures above.
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, { origin: APP_ORIGIN });
    expectOk(await passkeyPost(project, "/register", { credential: { ...credential, somethingNew: { a: 1 } }, code: initiated.body.code }, { tokens: user.tokens }));
  });

  it("checks the client data's origin against the trusted domains first, before the code", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, { origin: EVIL_ORIGIN });

    const unknownCode = await passkeyPost(project, "/register", { credential, code: "not-a-code" }, { tokens: user.tokens, origin: null });
    expectKnownError(unknownCode, "PASSKEY_REGISTRATION_FAILED", 400);
    expect(unknownCode.body.error).toBe(ORIGIN_NOT_ALLOWED);

    const realCode = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens, origin: null });
    expect(realCode.body.error).toBe(ORIGIN_NOT_ALLOWED);
    // The refused attempts did not use the code up.
    const good = new SoftwareAuthenticator().register(initiated.body.options_json, { origin: APP_ORIGIN });
    expectOk(await passkeyPost(project, "/register", { credential: good, code: initiated.body.code }, { tokens: user.tokens }));
  });

  it("refuses localhost pages with the same message unless the project allows localhost", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens, origin: null });
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, { origin: "http://localhost:3000" });
    const response = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens, origin: null });
    expect(response.body.error).toBe(ORIGIN_NOT_ALLOWED);
  });
});
