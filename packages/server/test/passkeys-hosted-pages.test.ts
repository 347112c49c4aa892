import { describe, expect, it } from "vitest";
import {
  APP_PAGE,
  expectKnownError,
  expectOk,
  initiateSignIn,
  passkeyPost,
  passkeyProject,
  registerPasskey,
  signedInUser,
  signInWithPasskey,
} from "./support/passkey-fixture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { configure, useServerForFile } from "./support/users-fixture.js";

// Passkeys on the handler pages this server hosts (issue 16 §5): they run on the server's public origin, which
// is none of the project's trusted domains. That origin is a relying party of a project exactly while the
// server hosts the project's pages, with the server's host name as RP id; every other origin is judged as
// before (passkeys-origins.test.ts).
const SERVER_ORIGIN = "https://auth.example.org";
useServerForFile({ LATCHKEY_PUBLIC_URL: `${SERVER_ORIGIN}/` });

const HOSTED_PAGE = { origin: SERVER_ORIGIN };
const REQUIRES_KEYS = { "project.requirePublishableClientKey": true };

describe("passkeys on the hosted handler pages", () => {
  it("registers a passkey on the hosted account-settings page and signs in with it on the hosted sign-in page", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator, HOSTED_PAGE));
    const signedIn = await signInWithPasskey(project, authenticator, HOSTED_PAGE);
    expectOk(signedIn);
    expect(signedIn.body.user_id).toBe(user.id);
  });

  it("keeps passkeys of the hosted pages and of the app's own pages apart: each belongs to its host name", async () => {
    const project = await passkeyProject();
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator, APP_PAGE));
    // The credential is scoped to app.example.com; signed for it on the hosted page, the RP id is wrong.
    const { options, code } = await initiateSignIn(project, SERVER_ORIGIN);
    const response = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, { origin: SERVER_ORIGIN, rpId: "app.example.com" }), code }, { origin: SERVER_ORIGIN });
    expectKnownError(response, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(response.body.error).toMatch(/RP ID/i);
  });

  it("refuses the server's origin for a project that requires publishable keys, which has no hosted pages", async () => {
    const project = await passkeyProject(REQUIRES_KEYS);
    const user = await signedInUser(project);
    const registration = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens, origin: SERVER_ORIGIN });
    expectKnownError(registration, "PASSKEY_REGISTRATION_FAILED", 400);
    expect(registration.body.error).toBe(`The origin "${SERVER_ORIGIN}" is not a trusted domain of this project`);
    const authentication = await passkeyPost(project, "/initiate-passkey-authentication", {}, { origin: SERVER_ORIGIN });
    expectKnownError(authentication, "PASSKEY_AUTHENTICATION_FAILED", 400);

    // Even with a code from a trusted page, a credential made on the server's origin is refused.
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    expectOk(initiated);
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, HOSTED_PAGE);
    const registered = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens, origin: SERVER_ORIGIN });
    expectKnownError(registered, "PASSKEY_REGISTRATION_FAILED", 400);
  });

  it("stops accepting the hosted pages' passkeys once the project requires publishable keys", async () => {
    const project = await passkeyProject();
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator, HOSTED_PAGE));
    const { options, code } = await initiateSignIn(project, SERVER_ORIGIN);
    await configure(project, REQUIRES_KEYS);
    const response = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, HOSTED_PAGE), code }, { origin: SERVER_ORIGIN });
    expectKnownError(response, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(response.body.error).toBe("Passkey authentication failed because the origin is not allowed");
  });

  it("accepts the server's exact origin only: not its other schemes, ports, subdomains or look-alikes", async () => {
    const project = await passkeyProject();
    for (const origin of ["http://auth.example.org", "https://auth.example.org:8443", "https://evil.auth.example.org", "https://auth.example.org.evil.test", "https://example.org", "null"]) {
      const initiated = await passkeyPost(project, "/initiate-passkey-authentication", {}, { origin });
      expectKnownError(initiated, "PASSKEY_AUTHENTICATION_FAILED", 400);
    }
    // A page elsewhere that writes the server's origin into its client data gets nothing either.
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator, HOSTED_PAGE));
    const { options, code } = await initiateSignIn(project, SERVER_ORIGIN);
    const relayed = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, HOSTED_PAGE), code }, { origin: "https://auth.example.org.evil.test" });
    expectKnownError(relayed, "PASSKEY_AUTHENTICATION_FAILED", 400);
  });
});
