import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../src/env.js";
import { rotateSigningKeys } from "../src/services/signing-keys.js";
import { api } from "./support/api.js";
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
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { server, useServerForFile } from "./support/users-fixture.js";

// One server for the file; the hardcoded-challenge and JWKS sections start their own.
useServerForFile();

// Passkey registration as the protocol's clients see it (issue 13 §4): the options, the free-form credential,
// the lenient client data, and the origin check that comes before everything else.
describe("passkey registration on the wire", () => {
  const EVIL_ORIGIN = "https://evil.example.net";
  const ORIGIN_NOT_ALLOWED = "Passkey registration failed because the origin is not allowed";

  /** Client data re-encoded as padded standard base64, as some clients send it. */
  function asPaddedBase64(base64url: string): string {
    return Buffer.from(base64url, "base64url").toString("base64");
  }

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

// STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING (issue 13 §4): client test suites written for the
// protocol's server record their credentials for the challenge `MOCK`; with the variable set (dev mode only)
// both initiate routes use it, so such suites run unchanged.
describe("the hardcoded passkey challenge for client test suites", () => {
  const MOCK_CHALLENGE = Buffer.from("MOCK").toString("base64url");
  const ORIGIN = "https://app.example.com";

  // A server of its own with the variable set; without it, the file's shared server.
  let mock: TestServer;
  let plain: TestServer;
  beforeAll(async () => {
    plain = server;
    mock = await startTestServer({ STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" });
  });
  afterAll(async () => {
    await mock?.close();
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
      "Invalid Latchkey configuration: STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: a fixed passkey challenge is for tests, allowed in dev mode only",
    );
    expect(readEnv({ ...production, STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "false" }).hardcodedPasskeyChallenge).toBe(false);
    expect(readEnv({ STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true" }).hardcodedPasskeyChallenge).toBe(true);
  });
});

// The JWKS and real key rotation (issue 13 §4, services/signing-keys.ts): per audience the current and the
// next key; rotation makes the next one sign, so every JWKS a verifier cached already holds it; tokens signed
// before a rotation keep verifying here for their lifetime.
describe("JWKS and signing key rotation", () => {
  // Rotation changes the server's signing keys, and a test counts its key generations: a server of its own.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function jwks(target: TestServer, projectId: string, query = ""): Promise<{ response: Response; body: JSONWebKeySet }> {
    const response = await fetch(`${target.url}/api/v1/projects/${projectId}/.well-known/jwks.json${query}`);
    return { response, body: await response.json() };
  }
  const kids = (set: JSONWebKeySet) => set.keys.map((key) => key.kid);
  const kidOf = (token: string) => decodeProtectedHeader(token).kid;

  async function signUp(target: TestServer, project: TestProject): Promise<string> {
    const response = await api(target.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: `jwks-${crypto.randomUUID()}@example.com`, password: "correct horse" } });
    expect(response.status).toBe(200);
    return response.body.access_token;
  }
  const me = (target: TestServer, project: TestProject, token: string) => api(target.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": token } });

  describe("the JWKS", () => {
    it("publishes the current and the next ES256 key per audience, four with anonymous users, every kid distinct, cacheable for an hour", async () => {
      const project = await createTestProject(server);
      const regular = await jwks(server, project.projectId);
      expect(regular.response.headers.get("cache-control")).toBe("public, max-age=3600");
      expect(regular.body.keys).toHaveLength(2);
      const all = await jwks(server, project.projectId, "?include_anonymous=true");
      expect(all.response.headers.get("cache-control")).toBe("public, max-age=3600");
      expect(all.body.keys).toHaveLength(4);
      expect(new Set(kids(all.body)).size).toBe(4);
      for (const key of all.body.keys) expect(key).toEqual({ kty: "EC", alg: "ES256", crv: "P-256", x: expect.any(String), y: expect.any(String), kid: expect.any(String) });
      expect(all.body.keys.slice(0, 2)).toEqual(regular.body.keys);
      // Another project's keys are its own.
      const other = await jwks(server, (await createTestProject(server)).projectId, "?include_anonymous=true");
      expect(kids(other.body).filter((kid) => kids(all.body).includes(kid))).toEqual([]);
    });

    it("signs a user's token with the current key and an anonymous user's with the anonymous audience's own current key", async () => {
      const project = await createTestProject(server);
      const all = kids((await jwks(server, project.projectId, "?include_anonymous=true")).body);
      expect(kidOf(await signUp(server, project))).toBe(all[0]);
      const anonymous = await api(server.url, "/auth/anonymous/sign-up", { headers: project.headers("client"), body: {} });
      expect(anonymous.status).toBe(200);
      expect(kidOf(anonymous.body.access_token)).toBe(all[2]);
      await jwtVerify(anonymous.body.access_token, createLocalJWKSet((await jwks(server, project.projectId, "?include_anonymous=true")).body));
      await expect(jwtVerify(anonymous.body.access_token, createLocalJWKSet((await jwks(server, project.projectId)).body))).rejects.toThrow();
    });
  });

  describe("signing key rotation", () => {
    it("makes the next key sign; tokens signed before still verify, and the JWKS served before already held the new signing key", async () => {
      const project = await createTestProject(server);
      const second = await startTestServer({}, { sameDatabaseAs: server });
      try {
        const before = (await jwks(server, project.projectId)).body;
        const [currentBefore, nextBefore] = kids(before);
        const tokenBefore = await signUp(server, project);
        expect(kidOf(tokenBefore)).toBe(currentBefore);

        await rotateSigningKeys(server.db, server.env);
        // Every process hears of it through the database's change notifications.
        for (const target of [server, second]) await expect.poll(async () => kids((await jwks(target, project.projectId)).body)[0]).toBe(nextBefore);

        const after = (await jwks(server, project.projectId)).body;
        expect(kids(after)[1]).not.toBe(currentBefore);
        expect(kids(before)).not.toContain(kids(after)[1]);
        expect(kids(after)).not.toContain(currentBefore);

        const tokenAfter = await signUp(server, project);
        expect(kidOf(tokenAfter)).toBe(nextBefore);
        // A verifier that cached the JWKS before the rotation verifies the new tokens.
        await jwtVerify(tokenAfter, createLocalJWKSet(before), { audience: project.projectId });
        // The token signed before (never presented until now) verifies on both processes for its lifetime.
        expect((await me(server, project, tokenBefore)).status).toBe(200);
        expect((await me(second, project, tokenBefore)).status).toBe(200);
        expect((await me(second, project, tokenAfter)).status).toBe(200);
      } finally {
        await second.close();
      }
    });

    it("deletes a retired key once every token it signed has expired", async () => {
      await rotateSigningKeys(server.db, server.env);
      const retired = await server.db.selectFrom("signing_key_generations").select("id").where("retired_at", "is not", null).execute();
      expect(retired.length).toBeGreaterThan(0);
      // Retired longer ago than the longest token lifetime (a day); the next reload cleans up.
      await server.db.updateTable("signing_key_generations").set({ retired_at: new Date(Date.now() - 26 * 3_600_000) }).where("retired_at", "is not", null).execute();
      const project = await createTestProject(server);
      await expect.poll(async () => {
        await jwks(server, project.projectId);
        return (await server.db.selectFrom("signing_key_generations").select("id").execute()).length;
      }).toBe(2);
    });

    it("stops verifying tokens of deleted generations at once, even tokens verified before (a leaked key)", async () => {
      const project = await createTestProject(server);
      const token = await signUp(server, project);
      expect((await me(server, project, token)).status).toBe(200);
      await rotateSigningKeys(server.db, server.env);
      await rotateSigningKeys(server.db, server.env);
      expect((await me(server, project, token)).status).toBe(200);
      await server.db.deleteFrom("signing_key_generations").where("retired_at", "is not", null).execute();
      await expect.poll(async () => (await me(server, project, token)).body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
      expect((await me(server, project, await signUp(server, project))).status).toBe(200);
    });

    it("happens on its own once the current key is older than LATCHKEY_SIGNING_KEY_ROTATION_DAYS", async () => {
      const rotating = await startTestServer({ LATCHKEY_SIGNING_KEY_ROTATION_DAYS: "1" });
      try {
        const project = await createTestProject(rotating);
        const [currentBefore, nextBefore] = kids((await jwks(rotating, project.projectId)).body);
        const token = await signUp(rotating, project);
        // Age the current key by two days.
        await rotating.db
          .updateTable("signing_key_generations")
          .set({ activated_at: new Date(Date.now() - 2 * 86_400_000) })
          .where("activated_at", "is not", null)
          .where("retired_at", "is", null)
          .execute();
        await expect.poll(async () => kids((await jwks(rotating, project.projectId)).body)[0]).toBe(nextBefore);
        expect(kids((await jwks(rotating, project.projectId)).body)).not.toContain(currentBefore);
        expect((await me(rotating, project, token)).status).toBe(200);
        expect(kidOf(await signUp(rotating, project))).toBe(nextBefore);
      } finally {
        await rotating.close();
      }
    });

    it("never happens on its own with LATCHKEY_SIGNING_KEY_ROTATION_DAYS=0", async () => {
      const steady = await startTestServer({ LATCHKEY_SIGNING_KEY_ROTATION_DAYS: "0" });
      try {
        const project = await createTestProject(steady);
        const before = kids((await jwks(steady, project.projectId)).body);
        await steady.db.updateTable("signing_key_generations").set({ activated_at: new Date(Date.now() - 3650 * 86_400_000) }).where("activated_at", "is not", null).execute();
        // The update is announced like any change; the keys are read again and stay as they were.
        const token = await signUp(steady, project);
        expect(kidOf(token)).toBe(before[0]);
        expect(kids((await jwks(steady, project.projectId)).body)).toEqual(before);
      } finally {
        await steady.close();
      }
    });
  });
});
