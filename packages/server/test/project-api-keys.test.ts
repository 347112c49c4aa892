import { parseProjectApiKey } from "@stackframe/stack-shared/dist/utils/api-keys";
import { describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";
import { as, configure, createUser, expectKnownError, server, signIn, useServerForFile, type Tokens } from "./support/users-fixture.js";

useServerForFile();

const KEYS_ON = { "apiKeys.enabled.user": true, "apiKeys.enabled.team": true };

async function keysProject(): Promise<TestProject> {
  const project = await createTestProject(server);
  await configure(project, KEYS_ON);
  return project;
}

async function signedInUser(project: TestProject): Promise<{ id: string; tokens: Tokens }> {
  const user = await createUser(project, { primary_email: `keys-${crypto.randomUUID()}@example.com` });
  return { id: user.id, tokens: await signIn(project, user.id) };
}

const createUserKey = (project: TestProject, tokens: Tokens, body: Record<string, unknown> = {}) =>
  as(project, "client", "/user-api-keys", { method: "POST", tokens, body: { description: "CI deploys", expires_at_millis: null, user_id: "me", ...body } });
const check = (project: TestProject, type: "user" | "team", apiKey: string) => as(project, "server", `/${type}-api-keys/check`, { method: "POST", body: { api_key: apiKey } });

describe("user API keys", () => {
  it("are created once in the protocol's format, listed by their last four, checked by the server and revoked", async () => {
    const project = await keysProject();
    const user = await signedInUser(project);
    const created = await createUserKey(project, user.tokens, { is_public: false });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const key: string = created.body.value;
    expect(created.body).toEqual({ id: expect.any(String), description: "CI deploys", created_at_millis: expect.any(Number), is_public: false, value: key, type: "user", user_id: user.id });
    // The reference's own parser accepts it: prefix, embedded id, type and checksum.
    expect(parseProjectApiKey(key)).toMatchObject({ id: created.body.id, type: "user", isPublic: false, prefix: "sk", isCloudVersion: false });

    const listed = await as(project, "client", "/user-api-keys?user_id=me", { tokens: user.tokens });
    expect(listed.body).toEqual({ items: [{ ...created.body, value: { last_four: key.slice(-4) } }], is_paginated: false });
    const stored = await server.db.selectFrom("project_api_keys").selectAll().where("id", "=", created.body.id).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret_hash).toString("utf8")).not.toContain(key.slice(3, 20));

    const checked = await check(project, "user", key);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ id: created.body.id, user_id: user.id, type: "user" });

    const revoked = await as(project, "client", `/user-api-keys/${created.body.id}?user_id=${user.id}`, { method: "PATCH", tokens: user.tokens, body: { revoked: true } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.manually_revoked_at_millis).toEqual(expect.any(Number));
    expectKnownError(await check(project, "user", key), "API_KEY_REVOKED", 401);
  });

  it("answers API_KEY_NOT_FOUND for made-up, mistyped or tampered keys, WRONG_API_KEY_TYPE across kinds, API_KEY_EXPIRED when old", async () => {
    const project = await keysProject();
    const user = await signedInUser(project);
    const key: string = (await createUserKey(project, user.tokens, { is_public: true })).body.value;
    expect(key.startsWith("pk_")).toBe(true);
    for (const wrong of ["nope", key.slice(0, -1) + (key.endsWith("0") ? "1" : "0"), key.replace(/^pk_(.)/, (_, c) => `pk_${c === "a" ? "b" : "a"}`)]) {
      expectKnownError(await check(project, "user", wrong), "API_KEY_NOT_FOUND", 404);
    }
    const wrongType = await check(project, "team", key);
    expectKnownError(wrongType, "WRONG_API_KEY_TYPE", 400);
    expect(wrongType.body.details).toEqual({ expected_type: "team", actual_type: "user" });

    const soon = await createUserKey(project, user.tokens, { expires_at_millis: Date.now() + 300 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expectKnownError(await check(project, "user", soon.body.value), "API_KEY_EXPIRED", 401);
    // Another project's server knows nothing of this key.
    const other = await keysProject();
    expectKnownError(await check(other, "user", key), "API_KEY_NOT_FOUND", 404);
  });

  it("belong to their user only: a client cannot list, read or revoke another user's keys", async () => {
    const project = await keysProject();
    const owner = await signedInUser(project);
    const intruder = await signedInUser(project);
    const created = await createUserKey(project, owner.tokens);
    expect((await as(project, "client", `/user-api-keys?user_id=${owner.id}`, { tokens: intruder.tokens })).status).toBe(403);
    expect((await createUserKey(project, intruder.tokens, { user_id: owner.id })).status).toBe(403);
    expectKnownError(await as(project, "client", `/user-api-keys/${created.body.id}?user_id=me`, { tokens: intruder.tokens }), "API_KEY_NOT_FOUND", 404);
    const patch = await as(project, "client", `/user-api-keys/${created.body.id}?user_id=me`, { method: "PATCH", tokens: intruder.tokens, body: { revoked: true } });
    expectKnownError(patch, "API_KEY_NOT_FOUND", 404);
    expect((await check(project, "user", created.body.value)).status).toBe(200);
    expectKnownError(await as(project, "client", "/user-api-keys/check", { method: "POST", tokens: owner.tokens, body: { api_key: created.body.value } }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("are refused while the project does not enable them, and go with their user", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const refused = await createUserKey(project, user.tokens);
    expect(refused.status).toBe(400);
    expect(refused.body).toBe("User API keys are not enabled for this project.");
    await configure(project, KEYS_ON);
    const created = await createUserKey(project, user.tokens);
    expect((await as(project, "server", `/users/${user.id}`, { method: "DELETE" })).status).toBe(200);
    expectKnownError(await check(project, "user", created.body.value), "API_KEY_NOT_FOUND", 404);
  });
});

describe("team API keys", () => {
  it("are managed by members holding $manage_api_keys, and by the server", async () => {
    const project = await keysProject();
    const admin = await signedInUser(project);
    const member = await signedInUser(project);
    const outsider = await signedInUser(project);
    const team = await as(project, "server", "/teams", { method: "POST", body: { display_name: "Keys", creator_user_id: admin.id } });
    expect(team.status).toBe(201);
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${member.id}`, { method: "POST", body: {} })).status).toBe(201);
    const body = { description: "team bot", expires_at_millis: null, team_id: team.body.id };

    const created = await as(project, "client", "/team-api-keys", { method: "POST", tokens: admin.tokens, body });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ type: "team", team_id: team.body.id });
    expect(parseProjectApiKey(created.body.value)).toMatchObject({ id: created.body.id, type: "team" });

    // Creating without $manage_api_keys is API_KEY_NOT_FOUND, as in the protocol (wire-teams.test.ts).
    expectKnownError(await as(project, "client", "/team-api-keys", { method: "POST", tokens: member.tokens, body }), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await as(project, "client", `/team-api-keys?team_id=${team.body.id}`, { tokens: outsider.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const revokeAttempt = await as(project, "client", `/team-api-keys/${created.body.id}?team_id=${team.body.id}`, { method: "PATCH", tokens: member.tokens, body: { revoked: true } });
    expectKnownError(revokeAttempt, "TEAM_PERMISSION_REQUIRED", 401);

    const checked = await check(project, "team", created.body.value);
    expect(checked.body).toMatchObject({ id: created.body.id, team_id: team.body.id });
    const listed = await as(project, "server", `/team-api-keys?team_id=${team.body.id}`);
    expect(listed.body.items.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
    expectKnownError(await as(project, "server", `/team-api-keys?team_id=${crypto.randomUUID()}`), "TEAM_NOT_FOUND", 404);

    expect((await as(project, "server", `/teams/${team.body.id}`, { method: "DELETE" })).status).toBe(200);
    expectKnownError(await check(project, "team", created.body.value), "API_KEY_NOT_FOUND", 404);
  });
});

describe("user API keys through the published Stack SDK", () => {
  it("creates a key as the signed-in user, finds the user by it on the server, and revokes it", async () => {
    const project = await keysProject();
    const sdk = stackSdk(server, project);
    const client = sdk.client();
    const address = `sdk-keys-${crypto.randomUUID()}@example.com`;
    const signUp = await client.signUpWithCredential({ email: address, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });
    expect(signUp.status).toBe("ok");
    const user = await client.getUser({ or: "throw" });
    const key = await user.createApiKey({ description: "from the SDK", expiresAt: new Date(Date.now() + 3_600_000), isPublic: false });
    expect(key.value).toMatch(/^sk_/);
    expect((await user.listApiKeys()).map((k) => k.id)).toEqual([key.id]);

    const byKey = await sdk.server().getUser({ apiKey: key.value });
    expect(byKey?.primaryEmail).toBe(address);
    await key.revoke();
    expect((await user.listApiKeys())[0]?.whyInvalid()).toBe("manually-revoked");
    expect(await sdk.server().getUser({ apiKey: key.value })).toBeNull();
  });
});
