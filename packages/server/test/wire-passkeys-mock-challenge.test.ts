import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../src/env.js";
import { api } from "./support/api.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING (issue 13 §4): client test suites written for the
// protocol's server record their credentials for the challenge `MOCK`; with the variable set (dev mode only)
// both initiate routes use it, so such suites run unchanged.

const MOCK_CHALLENGE = Buffer.from("MOCK").toString("base64url");
const ORIGIN = "https://app.example.com";

let mock: TestServer;
let plain: TestServer;
beforeAll(async () => {
  [mock, plain] = await Promise.all([startTestServer({ STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" }), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), plain?.close()]);
});

async function passkeyProject(server: TestServer): Promise<TestProject> {
  const project = await createTestProject(server, "Passkey App");
  const override = { "auth.passkey.allowSignIn": true, "domains.trustedDomains.app": { baseUrl: ORIGIN, handlerPath: "/handler" } };
  const configured = await api(server.url, "/internal/config/override", { method: "PATCH", headers: project.headers("admin"), body: { config_override_string: JSON.stringify(override) } });
  expect(configured.status).toBe(200);
  return project;
}

async function signedInHeaders(server: TestServer, project: TestProject): Promise<Record<string, string>> {
  const signUp = await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: `mock-${crypto.randomUUID()}@example.com`, password: "correct horse" } });
  return { ...project.headers("client"), origin: ORIGIN, "x-stack-access-token": signUp.body.access_token };
}

describe("the hardcoded passkey challenge for client test suites", () => {
  it("makes both initiate routes use the challenge MOCK, every time, and the ceremonies still complete", async () => {
    const project = await passkeyProject(mock);
    const headers = await signedInHeaders(mock, project);
    const authenticator = new SoftwareAuthenticator();
    for (let attempt = 0; attempt < 2; attempt++) {
      const registration = await api(mock.url, "/auth/passkey/initiate-passkey-registration", { headers, body: {} });
      expect(registration.body.options_json.challenge).toBe(MOCK_CHALLENGE);
      const authentication = await api(mock.url, "/auth/passkey/initiate-passkey-authentication", { headers: { ...project.headers("client"), origin: ORIGIN }, body: {} });
      expect(authentication.body.options_json.challenge).toBe(MOCK_CHALLENGE);
    }
    const registration = await api(mock.url, "/auth/passkey/initiate-passkey-registration", { headers, body: {} });
    const credential = authenticator.register(registration.body.options_json, { origin: ORIGIN });
    expect(JSON.parse(Buffer.from(credential.response.clientDataJSON, "base64url").toString()).challenge).toBe(MOCK_CHALLENGE);
    expect((await api(mock.url, "/auth/passkey/register", { headers, body: { credential, code: registration.body.code } })).status).toBe(200);

    const { options_json, code } = (await api(mock.url, "/auth/passkey/initiate-passkey-authentication", { headers: { ...project.headers("client"), origin: ORIGIN }, body: {} })).body;
    const signedIn = await api(mock.url, "/auth/passkey/sign-in", {
      headers: { ...project.headers("client"), origin: ORIGIN },
      body: { authentication_response: authenticator.authenticate(options_json, { origin: ORIGIN }), code },
    });
    expect(signedIn.status).toBe(200);
  });

  it("is off unless the environment asks for it: challenges are random", async () => {
    const project = await passkeyProject(plain);
    const headers = await signedInHeaders(plain, project);
    const challenges = new Set<string>();
    for (let attempt = 0; attempt < 3; attempt++) {
      challenges.add((await api(plain.url, "/auth/passkey/initiate-passkey-registration", { headers, body: {} })).body.options_json.challenge);
      challenges.add((await api(plain.url, "/auth/passkey/initiate-passkey-authentication", { headers, body: {} })).body.options_json.challenge);
    }
    expect(challenges.size).toBe(6);
    expect(challenges.has(MOCK_CHALLENGE)).toBe(false);
  });

  it("refuses to start outside dev mode with the variable set", () => {
    const production = { LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "x".repeat(40) };
    expect(() => readEnv({ ...production, STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" })).toThrow(
      "Invalid Latchkey configuration:\n  - STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: a fixed passkey challenge is for tests, allowed in dev mode only",
    );
    expect(readEnv({ ...production, STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "false" }).hardcodedPasskeyChallenge).toBe(false);
    expect(readEnv({ STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" }).hardcodedPasskeyChallenge).toBe(true);
  });
});
