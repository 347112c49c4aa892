import { describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, expectKnownError, server, useServerForFile, type Tokens } from "./support/users-fixture.js";
import { addMember, serverTeam, signedInUser } from "./support/teams-fixture.js";

/**
 * Issue 13 §3, user and team API keys as the protocol answers: lists newest first; a second revoke keeps
 * the first revocation time; `user_id` optional when reading one key, required (in the protocol's words)
 * for a list; the plain-text 403 for another user's keys; API_KEY_NOT_FOUND for a client creating a team
 * key without `$manage_api_keys`.
 */
useServerForFile();

async function keysProject(): Promise<TestProject> {
  const project = await createTestProject(server);
  await configure(project, {
    "apiKeys.enabled.user": true,
    "apiKeys.enabled.team": true,
    "rbac.defaultPermissions.teamCreator": { $manage_api_keys: true },
    "rbac.defaultPermissions.teamMember": { $read_members: true, $invite_members: true },
  });
  return project;
}

const createUserKey = (project: TestProject, tokens: Tokens, description: string, userId = "me") =>
  as(project, "client", "/user-api-keys", { method: "POST", tokens, body: { description, expires_at_millis: null, user_id: userId } });

describe("API key lists", () => {
  it("show a user's keys newest first, to the client and the server", async () => {
    const project = await keysProject();
    const user = await signedInUser(project);
    const made: string[] = [];
    for (const description of ["first", "second", "third"]) {
      const created = await createUserKey(project, user.tokens, description);
      expect(created.status).toBe(200);
      made.push(created.body.id);
    }
    const newestFirst = [...made].reverse();
    const listed = await as(project, "client", "/user-api-keys?user_id=me", { tokens: user.tokens });
    expect(listed.body.items.map((k: { id: string }) => k.id)).toEqual(newestFirst);
    expect(listed.body.items.map((k: { description: string }) => k.description)).toEqual(["third", "second", "first"]);
    expect((await as(project, "server", `/user-api-keys?user_id=${user.id}`)).body.items.map((k: { id: string }) => k.id)).toEqual(newestFirst);
  });

  it("show a team's keys newest first", async () => {
    const project = await keysProject();
    const team = await serverTeam(project);
    const made: string[] = [];
    for (const description of ["old", "new"]) {
      const created = await as(project, "server", "/team-api-keys", { method: "POST", body: { description, expires_at_millis: null, team_id: team.id } });
      expect(created.status).toBe(200);
      made.push(created.body.id);
    }
    expect((await as(project, "server", `/team-api-keys?team_id=${team.id}`)).body.items.map((k: { id: string }) => k.id)).toEqual([made[1], made[0]]);
  });

  it("without user_id are refused with the protocol's SCHEMA_ERROR, for clients and servers", async () => {
    const project = await keysProject();
    const user = await signedInUser(project);
    for (const response of [await as(project, "client", "/user-api-keys", { tokens: user.tokens }), await as(project, "server", "/user-api-keys")]) {
      expectKnownError(response, "SCHEMA_ERROR", 400);
      expect(response.body.error).toBe("user_id is required for user API keys");
      expect(response.body.details).toEqual({ message: "user_id is required for user API keys" });
    }
  });
});

describe("revoking an API key", () => {
  it("twice answers 200 both times, keeping the first revocation time", async () => {
    const project = await keysProject();
    const user = await signedInUser(project);
    const created = await createUserKey(project, user.tokens, "revoke me");
    const path = `/user-api-keys/${created.body.id}?user_id=me`;
    const first = await as(project, "client", path, { method: "PATCH", tokens: user.tokens, body: { revoked: true } });
    expect(first.status).toBe(200);
    const revokedAt = first.body.manually_revoked_at_millis;
    expect(revokedAt).toEqual(expect.any(Number));

    const second = await as(project, "client", path, { method: "PATCH", tokens: user.tokens, body: { revoked: true } });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const serverRevoke = await as(project, "server", `/user-api-keys/${created.body.id}?user_id=${user.id}`, { method: "PATCH", body: { revoked: true } });
    expect(serverRevoke.status).toBe(200);
    expect(serverRevoke.body.manually_revoked_at_millis).toBe(revokedAt);
    // A revoked key's description can still change; its revocation time stays.
    const renamed = await as(project, "client", path, { method: "PATCH", tokens: user.tokens, body: { description: "renamed", revoked: true } });
    expect(renamed.body).toMatchObject({ description: "renamed", manually_revoked_at_millis: revokedAt });
  });
});

describe("reading one user API key", () => {
  it("needs no user_id: the key names its owner, for the owner's client and for the server", async () => {
    const project = await keysProject();
    const user = await signedInUser(project);
    const created = await createUserKey(project, user.tokens, "mine");
    const { value: _whole, ...shown } = created.body;
    const expected = { ...shown, value: { last_four: created.body.value.slice(-4) } };
    const byClient = await as(project, "client", `/user-api-keys/${created.body.id}`, { tokens: user.tokens });
    expect(byClient.status).toBe(200);
    expect(byClient.body).toEqual(expected);
    expect((await as(project, "server", `/user-api-keys/${created.body.id}`)).body).toEqual(expected);
    expectKnownError(await as(project, "server", `/user-api-keys/${crypto.randomUUID()}`), "API_KEY_NOT_FOUND", 404);
  });
});

describe("another user's API keys", () => {
  it("are refused to a client with the protocol's plain-text 403, whether listed, created, read or revoked", async () => {
    const project = await keysProject();
    const owner = await signedInUser(project);
    const intruder = await signedInUser(project);
    const key = await createUserKey(project, owner.tokens, "owner's");
    const attempts = [
      await as(project, "client", `/user-api-keys?user_id=${owner.id}`, { tokens: intruder.tokens }),
      await createUserKey(project, intruder.tokens, "not mine", owner.id),
      await as(project, "client", `/user-api-keys/${key.body.id}?user_id=${owner.id}`, { tokens: intruder.tokens }),
      await as(project, "client", `/user-api-keys/${key.body.id}`, { tokens: intruder.tokens }),
      await as(project, "client", `/user-api-keys/${key.body.id}`, { method: "PATCH", tokens: intruder.tokens, body: { revoked: true } }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(403);
      expect(response.text).toBe("Client can only manage their own api keys");
    }
    expect((await as(project, "server", `/user-api-keys/${key.body.id}`)).body.manually_revoked_at_millis).toBeUndefined();
  });
});

describe("a client creating a team API key", () => {
  it("without $manage_api_keys gets API_KEY_NOT_FOUND, member or not; with it, the key", async () => {
    const project = await keysProject();
    const creator = await signedInUser(project);
    const member = await signedInUser(project);
    const outsider = await signedInUser(project);
    const team = await serverTeam(project, { creator_user_id: creator.id });
    await addMember(project, team.id, member.id);
    const create = (tokens: Tokens, teamId = team.id) =>
      as(project, "client", "/team-api-keys", { method: "POST", tokens, body: { description: "bot", expires_at_millis: null, team_id: teamId } });

    expectKnownError(await create(member.tokens), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await create(outsider.tokens), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await create(outsider.tokens, crypto.randomUUID()), "API_KEY_NOT_FOUND", 404);
    expect((await as(project, "server", `/team-api-keys?team_id=${team.id}`)).body.items).toEqual([]);

    const created = await create(creator.tokens);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: "team", team_id: team.id, description: "bot" });
  });
});
