import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateSigningKeys } from "../src/services/signing-keys.js";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// The JWKS and real key rotation (issue 13 §4, services/signing-keys.ts): per audience the current and the
// next key; rotation makes the next one sign, so every JWKS a verifier cached already holds it; tokens signed
// before a rotation keep verifying here for their lifetime.

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
    for (const key of all.body.keys) expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
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
