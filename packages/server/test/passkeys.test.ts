import { describe, expect, it } from "vitest";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { PASSKEY_RP_ID_SENTINEL } from "@latchkey/protocol/schemas";
import { api } from "./support/api.js";
import {
  APP_PAGE,
  expectKnownError,
  expectOk,
  getMe,
  initiateSignIn,
  passkeyPost,
  passkeyProject,
  registerPasskey,
  signedInUser,
  signInWithPasskey,
} from "./support/passkey-fixture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { configure, server, useServerForFile } from "./support/users-fixture.js";

// Passkeys over HTTP with a software authenticator (real ES256 keys, real attestation and assertions):
// registering, signing in, and the ways a sign-in must fail (SPEC.md §4 "Passkey", §5 "WebAuthn").
useServerForFile();

describe("passkey registration and sign-in", () => {
  it("registers a passkey for the signed-in user, who then signs in with it", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const before = await getMe(project, user.tokens);
    expect(before.body.passkey_auth_enabled).toBe(false);

    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    expectOk(initiated);
    expect(Object.keys(initiated.body).sort()).toEqual(["code", "options_json"]);
    const options = initiated.body.options_json;
    // The client library insists on the sentinel and puts the page's hostname in its place.
    expect(options.rp).toEqual({ id: PASSKEY_RP_ID_SENTINEL, name: "Passkey App" });
    const userHandle = isoBase64URL.toBuffer(options.user.id);
    expect(userHandle.length).toBeGreaterThanOrEqual(1);
    expect(userHandle.length).toBeLessThanOrEqual(64);
    expect(new TextDecoder().decode(userHandle)).toBe(user.id);
    expect(options.user.name).toBe(user.email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required" });

    const authenticator = new SoftwareAuthenticator();
    const credential = authenticator.register(options, APP_PAGE);
    const registered = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens });
    expectOk(registered);
    expect(registered.body).toEqual({ user_handle: credential.id });
    expect((await getMe(project, user.tokens)).body.passkey_auth_enabled).toBe(true);

    const { options: signInOptions, code } = await initiateSignIn(project);
    expect(signInOptions.rpId).toBe(PASSKEY_RP_ID_SENTINEL);
    expect(signInOptions.allowCredentials ?? []).toEqual([]);
    const authentication_response = authenticator.authenticate(signInOptions, APP_PAGE);
    const signedIn = await passkeyPost(project, "/sign-in", { authentication_response, code });
    expectOk(signedIn);
    expect(Object.keys(signedIn.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(signedIn.body).toMatchObject({ user_id: user.id, is_new_user: false });
    const me = await getMe(project, signedIn.body);
    expect(me.body).toMatchObject({ id: user.id, primary_email: user.email, passkey_auth_enabled: true });
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...project.headers("client"), "x-stack-refresh-token": signedIn.body.refresh_token },
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  it("signs in the same way when a server-side caller sends no Origin header (the signed client data names the page)", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project, null);
    const signedIn = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, APP_PAGE), code }, { origin: null });
    expectOk(signedIn);
    expect(signedIn.body.user_id).toBe(user.id);
  });

  it("asks for a signed-in user before registering a passkey, as a schema error like the protocol", async () => {
    const project = await passkeyProject();
    const response = await passkeyPost(project, "/initiate-passkey-registration", {});
    expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(response.body.error).toBe("Request validation failed on POST /api/v1/auth/passkey/initiate-passkey-registration:\n  - auth.user must be defined");
  });

  it("replaces the user's passkey when they register another: the old one no longer signs in", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const oldDevice = new SoftwareAuthenticator();
    const newDevice = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, oldDevice));
    expectOk(await registerPasskey(project, user, newDevice));
    expectKnownError(await signInWithPasskey(project, oldDevice), "PASSKEY_AUTHENTICATION_FAILED", 400);
    const signedIn = await signInWithPasskey(project, newDevice);
    expectOk(signedIn);
    expect(signedIn.body.user_id).toBe(user.id);
  });

  it("tells each user's passkey apart", async () => {
    const project = await passkeyProject();
    const alice = await signedInUser(project);
    const bob = await signedInUser(project);
    const alicesPhone = new SoftwareAuthenticator();
    const bobsPhone = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, alice, alicesPhone));
    expectOk(await registerPasskey(project, bob, bobsPhone));
    expect((await signInWithPasskey(project, alicesPhone)).body.user_id).toBe(alice.id);
    expect((await signInWithPasskey(project, bobsPhone)).body.user_id).toBe(bob.id);
  });
});

describe("passkey challenges", () => {
  it("accepts an authentication challenge once: the same code again is refused", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    expectOk(await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, APP_PAGE), code }));
    const replay = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, APP_PAGE), code });
    expectKnownError(replay, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("gives a raced challenge to exactly one of several parallel sign-ins", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    // Distinct, each valid on its own (growing counters), so only the challenge decides.
    const assertions = Array.from({ length: 5 }, () => authenticator.authenticate(options, APP_PAGE));
    const responses = await Promise.all(assertions.map((authentication_response) => passkeyPost(project, "/sign-in", { authentication_response, code })));
    const statuses = responses.map((r) => (r.status === 200 ? "signed in" : r.body.code));
    expect(statuses.filter((s) => s === "signed in")).toHaveLength(1);
    expect(statuses.filter((s) => s === "VERIFICATION_CODE_ALREADY_USED")).toHaveLength(4);
  });

  it("accepts a registration challenge once, and only from the user it was issued to", async () => {
    const project = await passkeyProject();
    const alice = await signedInUser(project);
    const mallory = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: alice.tokens });
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, APP_PAGE);
    const stolen = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: mallory.tokens });
    expectKnownError(stolen, "VERIFICATION_CODE_NOT_FOUND", 404);
    expect((await getMe(project, mallory.tokens)).body.passkey_auth_enabled).toBe(false);
    // Mallory's try used the challenge up: single use means single use, whoever spent it.
    const late = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: alice.tokens });
    expectKnownError(late, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses an expired challenge and an unknown code", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    // Five minutes pass: the challenge's expiry is moved into the past.
    await server.db.updateTable("passkey_challenges").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).where("used_at", "is", null).execute();
    const authentication_response = authenticator.authenticate(options, APP_PAGE);
    expectKnownError(await passkeyPost(project, "/sign-in", { authentication_response, code }), "VERIFICATION_CODE_EXPIRED", 400);
    expectKnownError(await passkeyPost(project, "/sign-in", { authentication_response, code: "0".repeat(45) }), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("answers a challenge from one project with 'not found' in another", async () => {
    const project = await passkeyProject();
    const other = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    const crossed = await passkeyPost(other, "/sign-in", { authentication_response: authenticator.authenticate(options, APP_PAGE), code });
    expectKnownError(crossed, "VERIFICATION_CODE_NOT_FOUND", 404);
  });
});

describe("passkey signature counter", () => {
  it("refuses an assertion whose counter went backwards (a cloned authenticator), then accepts the real one", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    expectOk(await signInWithPasskey(project, authenticator));
    expectOk(await signInWithPasskey(project, authenticator));
    const stored = await server.db.selectFrom("passkey_credentials").select("counter").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(2);

    // The clone starts from the counter the original had two sign-ins ago.
    const credential = authenticator.credentialFor(APP_PAGE);
    credential.counter = 0;
    const cloned = await signInWithPasskey(project, authenticator);
    expectKnownError(cloned, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(cloned.body.error).toMatch(/counter/i);

    credential.counter = 10;
    expectOk(await signInWithPasskey(project, authenticator));
  });

  it("lets only one of two racing assertions with the same counter sign in (an original and its clone)", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const first = await initiateSignIn(project);
    const second = await initiateSignIn(project);
    const credential = authenticator.credentialFor(APP_PAGE);
    const original = authenticator.authenticate(first.options, APP_PAGE);
    credential.counter -= 1;
    const clone = authenticator.authenticate(second.options, APP_PAGE);
    const responses = await Promise.all([
      passkeyPost(project, "/sign-in", { authentication_response: original, code: first.code }),
      passkeyPost(project, "/sign-in", { authentication_response: clone, code: second.code }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(responses.find((r) => r.status === 400)!.body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
  });
});

describe("passkey switches", () => {
  it("refuses every passkey route while the project has passkeys off", async () => {
    const project = await passkeyProject({ "auth.passkey.allowSignIn": false });
    const user = await signedInUser(project);
    const notEnabled = ["PASSKEY_AUTHENTICATION_NOT_ENABLED", 400] as const;
    expectKnownError(await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens }), ...notEnabled);
    expectKnownError(await passkeyPost(project, "/initiate-passkey-authentication", {}), ...notEnabled);
  });

  it("stops signing in with a registered passkey once the project turns passkeys off", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    await configure(project, { "auth.passkey.allowSignIn": false });
    const response = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, APP_PAGE), code });
    expectKnownError(response, "PASSKEY_AUTHENTICATION_NOT_ENABLED", 400);
  });

  it("refuses the passkey of a user who turned passkey sign-in off", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const patched = await api(server.url, "/users/me", {
      method: "PATCH",
      headers: { ...project.headers("client"), "x-stack-access-token": user.tokens.access_token },
      body: { passkey_auth_enabled: false },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.passkey_auth_enabled).toBe(false);
    expectKnownError(await signInWithPasskey(project, authenticator), "PASSKEY_AUTHENTICATION_FAILED", 400);

    // Turning it off removed the passkey, as the reference does: switching back on needs a new registration.
    const again = await api(server.url, "/users/me", {
      method: "PATCH",
      headers: { ...project.headers("client"), "x-stack-access-token": user.tokens.access_token },
      body: { passkey_auth_enabled: true },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expectKnownError(await signInWithPasskey(project, authenticator), "PASSKEY_AUTHENTICATION_FAILED", 400);
    expectOk(await registerPasskey(project, user, authenticator));
    expectOk(await signInWithPasskey(project, authenticator));
  });

  it("validates the request bodies with the protocol's schema errors", async () => {
    const project = await passkeyProject();
    const response = await passkeyPost(project, "/sign-in", { authentication_response: { id: "x" }, code: "c" });
    expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(response.body.error).toContain("body.authentication_response.rawId must be defined");
  });
});
