import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { APP_ORIGIN, expectOk, initiateSignIn, passkeyPost, passkeyProject, registerPasskey, signedInUser, signInWithPasskey } from "./support/passkey-fixture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { useServerForFile } from "./support/users-fixture.js";

// Passkey sign-in as the protocol's clients and test suites send it (issue 29 §3): binary fields in either
// base64, the origin checked with the trusted-domain rules (wildcards, ports), the reference's refusal text, and
// the user-handle check, which a replayed recording skips while the hardcoded test challenge is on.
useServerForFile();

const ORIGIN_NOT_ALLOWED = "Passkey authentication failed because the origin is not allowed";
const toStandardBase64 = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64");

function expectAuthenticationFailed(response: ApiResponse, message: string): void {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ code: "PASSKEY_AUTHENTICATION_FAILED", error: message });
}

/** An assertion with every binary field re-encoded as padded standard base64, as some clients send it. */
function inStandardBase64(assertion: ReturnType<SoftwareAuthenticator["authenticate"]>) {
  const { response } = assertion;
  return {
    ...assertion,
    id: toStandardBase64(assertion.id),
    rawId: toStandardBase64(assertion.rawId),
    response: {
      clientDataJSON: toStandardBase64(response.clientDataJSON),
      authenticatorData: toStandardBase64(response.authenticatorData),
      signature: toStandardBase64(response.signature),
      userHandle: toStandardBase64(response.userHandle),
    },
  };
}

describe("passkey sign-in on the wire", () => {
  it("reads every binary field in padded standard base64 as well as base64url, and finds the passkey by its credential id", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    const assertion = inStandardBase64(authenticator.authenticate(options, { origin: APP_ORIGIN }));
    // 32-byte credential ids always end in padding in standard base64.
    expect(assertion.id).toMatch(/=$/);
    expect(assertion.response.clientDataJSON).toMatch(/=$|[+/]/);
    const signedIn = await passkeyPost(project, "/sign-in", { authentication_response: assertion, code }, { origin: null });
    expectOk(signedIn);
    expect(signedIn.body.user_id).toBe(user.id);

    // A credential id no passkey has.
    const other = new SoftwareAuthenticator();
    other.register({ user: { id: Buffer.from(user.id).toString("base64url") }, challenge: "x" }, { origin: APP_ORIGIN });
    const again = await initiateSignIn(project);
    const unknown = await passkeyPost(project, "/sign-in", { authentication_response: other.authenticate(again.options, { origin: APP_ORIGIN }), code: again.code });
    expectAuthenticationFailed(unknown, "Passkey not found");
  });

  it("admits a page a trusted domain's wildcard and port match, localhost included while localhost is not allowed", async () => {
    const project = await passkeyProject({ "domains.allowLocalhost": false, "domains.trustedDomains.any": { baseUrl: "http://*:8103", handlerPath: "/handler" } });
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    const local = { origin: "http://localhost:8103" };
    expectOk(await registerPasskey(project, user, authenticator, local));
    // Sent as a test suite sends it: no Origin header, the signed client data names the page.
    const { options, code } = await initiateSignIn(project, null);
    const signedIn = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, local), code }, { origin: null });
    expectOk(signedIn);
    expect(signedIn.body.user_id).toBe(user.id);
    expectOk(await signInWithPasskey(project, authenticator, local));
  });

  it("refuses any other page with the reference's text, whether the Origin header or the client data names it", async () => {
    const project = await passkeyProject({ "domains.allowLocalhost": false, "domains.trustedDomains.any": { baseUrl: "http://*:8103", handlerPath: "/handler" } });
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, await signedInUser(project), authenticator, { origin: "http://localhost:8103" }));
    for (const origin of ["http://localhost:8104", "https://localhost:8103", "http://app.localhost:8103", "https://app.example.com.evil.test"]) {
      // The authenticator answers for the page (its RP id), as a phishing page would make it.
      const { options, code } = await initiateSignIn(project, null);
      const page = { origin, rpId: "localhost" };
      const byClientData = await passkeyPost(project, "/sign-in", { authentication_response: authenticator.authenticate(options, page, authenticator.credentialFor({ origin: "http://localhost:8103" })), code }, { origin: null });
      expectAuthenticationFailed(byClientData, ORIGIN_NOT_ALLOWED);
    }
    const { options, code } = await initiateSignIn(project, null);
    const assertion = authenticator.authenticate(options, { origin: "http://localhost:8103" });
    const byHeader = await passkeyPost(project, "/sign-in", { authentication_response: assertion, code }, { origin: "http://localhost:8104" });
    expectAuthenticationFailed(byHeader, ORIGIN_NOT_ALLOWED);
  });

  it("refuses an assertion whose user handle names another account", async () => {
    const project = await passkeyProject();
    const user = await signedInUser(project);
    const authenticator = new SoftwareAuthenticator();
    expectOk(await registerPasskey(project, user, authenticator));
    const { options, code } = await initiateSignIn(project);
    const assertion = authenticator.authenticate(options, { origin: APP_ORIGIN });
    // The user handle is not signed: anyone relaying the assertion can change it.
    const relabelled = { ...assertion, response: { ...assertion.response, userHandle: Buffer.from(crypto.randomUUID()).toString("base64url") } };
    const response = await passkeyPost(project, "/sign-in", { authentication_response: relabelled, code });
    expectAuthenticationFailed(response, "The passkey's user handle does not match its account");
  });
});

// STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: suites replay credentials recorded against another server,
// whose user handles name that server's users.
describe("passkey sign-in with the hardcoded test challenge", () => {
  const ORIGIN = "http://localhost:8103";
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" });
  });
  afterAll(async () => {
    await mock?.close();
  });

  async function mockProject(): Promise<TestProject> {
    const project = await createTestProject(mock, "Passkey App");
    const override = { "auth.passkey.allowSignIn": true, "domains.allowLocalhost": false, "domains.trustedDomains.any": { baseUrl: "http://*:8103", handlerPath: "/handler" } };
    const configured = await api(mock.url, "/internal/config/override", { method: "PATCH", headers: project.headers("admin"), body: { config_override_string: JSON.stringify(override) } });
    expect(configured.status).toBe(200);
    return project;
  }

  it("signs in although the recorded user handle names another server's user", async () => {
    const project = await mockProject();
    const signUp = await api(mock.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: `mock-${crypto.randomUUID()}@example.com`, password: "correct horse" } });
    const headers = { ...project.headers("client"), "x-stack-access-token": signUp.body.access_token };
    const authenticator = new SoftwareAuthenticator();
    const registration = await api(mock.url, "/auth/passkey/initiate-passkey-registration", { headers, body: {} });
    // Recorded elsewhere: the authenticator keeps another user id as the handle.
    const recorded = { ...registration.body.options_json, user: { ...registration.body.options_json.user, id: Buffer.from(crypto.randomUUID()).toString("base64url") } };
    const credential = authenticator.register(recorded, { origin: ORIGIN });
    expect((await api(mock.url, "/auth/passkey/register", { headers, body: { credential, code: registration.body.code } })).status).toBe(200);

    const { options_json, code } = (await api(mock.url, "/auth/passkey/initiate-passkey-authentication", { headers: project.headers("client"), body: {} })).body;
    const signedIn = await api(mock.url, "/auth/passkey/sign-in", {
      headers: project.headers("client"),
      body: { authentication_response: inStandardBase64(authenticator.authenticate(options_json, { origin: ORIGIN })), code },
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user_id).toBe(signUp.body.user_id);
  });
});
