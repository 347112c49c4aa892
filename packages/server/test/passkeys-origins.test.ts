import { describe, expect, it } from "vitest";
import {
  APP_ORIGIN,
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
import { server, useServerForFile } from "./support/users-fixture.js";

// Which pages may use passkeys (SPEC.md §5 "WebAuthn", "Trusted domain"): the RP id is the requesting
// page's hostname, and that page must be a trusted domain of the project (wildcards allowed), or localhost
// when the project allows it. A phishing page must get nothing, whatever its browser or script claims.
useServerForFile();

const EVIL_ORIGIN = "https://app.example.com.evil.test";

describe("passkey origins and RP ids", () => {
  it("refuses to start a ceremony on a page the project does not trust", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const registration = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens, origin: EVIL_ORIGIN });
    expectKnownError(registration, "PASSKEY_REGISTRATION_FAILED", 400);
    expect(registration.body.error).toContain(EVIL_ORIGIN);
    const authentication = await passkeyPost(project, "/initiate-passkey-authentication", {}, { origin: EVIL_ORIGIN });
    expectKnownError(authentication, "PASSKEY_AUTHENTICATION_FAILED", 400);
  });

  it("refuses a registration completed on an untrusted page, even with a code from a trusted one", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, { origin: EVIL_ORIGIN });
    const registered = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens, origin: EVIL_ORIGIN });
    expectKnownError(registered, "PASSKEY_REGISTRATION_FAILED", 400);
  });

  it("refuses a registration whose signed client data names another origin than the page", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens });
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, { origin: EVIL_ORIGIN, rpId: "app.example.com" });
    const registered = await passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens, origin: APP_ORIGIN });
    expectKnownError(registered, "PASSKEY_REGISTRATION_FAILED", 400);
    expect(registered.body.error).toMatch(/origin/i);
  });

  it("refuses an assertion relayed from a phishing page (client data origin differs from the trusted page)", async () => {
    const project = await passkeyProject();
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator));
    const { options, code } = await initiateSignIn(project);
    const relayed = authenticator.authenticate(options, { origin: EVIL_ORIGIN, rpId: "app.example.com" });
    const response = await passkeyPost(project, "/sign-in", { authentication_response: relayed, code });
    expectKnownError(response, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(response.body.error).toContain(`Unexpected authentication response origin "${EVIL_ORIGIN}"`);
  });

  it("refuses a sign-in sent from an untrusted page even if its client data claims the trusted one", async () => {
    const project = await passkeyProject();
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator));
    const { options, code } = await initiateSignIn(project);
    const response = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, APP_PAGE), code }, { origin: EVIL_ORIGIN });
    expectKnownError(response, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(response.body.error).toBe("Passkey authentication failed because the origin is not allowed");
  });

  it("refuses an assertion signed for another RP id than the page's hostname", async () => {
    const project = await passkeyProject({ "domains.trustedDomains.shop": { baseUrl: "https://shop.example.com", handlerPath: "/handler" } });
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator));
    const { options, code } = await initiateSignIn(project, "https://shop.example.com");
    // The credential is scoped to app.example.com; the page is shop.example.com, also trusted.
    const wrongRp = authenticator.authenticate(options, { origin: "https://shop.example.com", rpId: "app.example.com" });
    const response = await passkeyPost(project, "/sign-in", { authentication_response: wrongRp, code }, { origin: "https://shop.example.com" });
    expectKnownError(response, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(response.body.error).toMatch(/RP ID/i);
  });

  it("accepts any subdomain of a wildcard trusted domain, and nothing else", async () => {
    const project = await passkeyProject({ "domains.trustedDomains.app": null, "domains.trustedDomains.all": { baseUrl: "https://*.example.com", handlerPath: "/handler" } });
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    const shop = { origin: "https://shop.example.com" };
    expectOk(await registerPasskey(project, user, authenticator, shop));
    const signedIn = await signInWithPasskey(project, authenticator, shop);
    expectOk(signedIn);
    expect(signedIn.body.user_id).toBe(user.id);
    for (const origin of ["https://example.com", "https://shop.example.org", "http://shop.example.com", "https://shop.example.com:8443"]) {
      const initiated = await passkeyPost(project, "/initiate-passkey-authentication", {}, { origin });
      expectKnownError(initiated, "PASSKEY_AUTHENTICATION_FAILED", 400);
    }
  });

  it("accepts localhost pages only while the project allows localhost, and never bare IP addresses", async () => {
    const local = { origin: "http://localhost:3000" };
    const allowing = await passkeyProject({ "domains.allowLocalhost": true });
    const user = await signedInUser(allowing);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(allowing, user, authenticator, local));
    expectOk(await signInWithPasskey(allowing, authenticator, local));
    const ip = await passkeyPost(allowing, "/initiate-passkey-authentication", {}, { origin: "http://127.0.0.1:3000" });
    expectKnownError(ip, "PASSKEY_AUTHENTICATION_FAILED", 400);

    const refusing = await passkeyProject({ "domains.allowLocalhost": false });
    const refused = await passkeyPost(refusing, "/initiate-passkey-authentication", {}, { origin: local.origin });
    expectKnownError(refused, "PASSKEY_AUTHENTICATION_FAILED", 400);
  });

  it("accepts this server's own localhost origin (its hosted pages in development), and no other localhost page", async () => {
    // This server's public URL is on localhost: its hosted handler pages run there, port included.
    const hosted = { origin: new URL(server.env.publicUrl).origin };
    expect(new URL(hosted.origin).hostname).toBe("localhost");
    const project = await passkeyProject({ "domains.allowLocalhost": false });
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator, hosted));
    expectOk(await signInWithPasskey(project, authenticator, hosted));
    const otherPort = await passkeyPost(project, "/initiate-passkey-authentication", {}, { origin: "http://localhost:3000" });
    expectKnownError(otherPort, "PASSKEY_AUTHENTICATION_FAILED", 400);
  });
});
