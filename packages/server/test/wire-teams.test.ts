import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import { addMember, configureTeams, serverTeam, signedInUser } from "./support/teams-fixture.js";
import { CONFIG_WITHOUT_TEAM_ROLES, createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createTeam, createUser, expectKnownError, server, signIn, useServerForFile, type Tokens } from "./support/users-fixture.js";

// One server for the file; the team invitations section starts its own, with an SMTP capture.
useServerForFile();

/**
 * Issue 13 §2: creating a team or adding a membership never changes the user's selected team, as in the
 * protocol. A client that wants the new team selected sends its own `PATCH /users/me` (the client
 * libraries do).
 */
describe("the selected team", () => {
  const selectedOf = async (project: TestProject, userId: string) => {
    const read = await as(project, "server", `/users/${userId}`);
    expect(read.status).toBe(200);
    return { id: read.body.selected_team_id, team: read.body.selected_team };
  };

  it("stays unset when a server creates a team for a user who had none selected", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id });
    expect(await selectedOf(project, user.id)).toEqual({ id: null, team: null });
    // The user is the team's member all the same.
    expect((await as(project, "server", `/teams?user_id=${user.id}`)).body.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
  });

  it("stays on the personal team when the user creates another team as a client, until the client selects it", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    await configure(project, { "teams.createPersonalTeamOnSignUp": true });
    const user = await signedInUser(project, { display_name: "Ada" });
    const personal = await selectedOf(project, user.id);
    expect(personal.team).toMatchObject({ display_name: "Ada's Team" });

    const created = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "Second", creator_user_id: "me" } });
    expect(created.status).toBe(201);
    const me = await as(project, "client", "/users/me", { tokens: user.tokens });
    expect(me.body.selected_team_id).toBe(personal.id);
    expect(me.body.selected_team).toMatchObject({ id: personal.id, display_name: "Ada's Team" });

    // What the client libraries do right after creating a team.
    const selected = await as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: created.body.id } });
    expect(selected.status).toBe(200);
    expect(selected.body.selected_team).toMatchObject({ id: created.body.id, display_name: "Second" });
  });

  it("stays as it was when a server adds the user to a team, or names them creator with add_current_user", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const first = await serverTeam(project);
    await addMember(project, first.id, user.id);
    expect(await selectedOf(project, user.id)).toEqual({ id: null, team: null });

    expect((await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { selected_team_id: first.id } })).status).toBe(200);
    const second = await serverTeam(project);
    await addMember(project, second.id, user.id);
    const third = await as(project, "server", "/teams?add_current_user=true", { method: "POST", tokens: user.tokens, body: { display_name: "Third" } });
    expect(third.status).toBe(201);
    const after = await selectedOf(project, user.id);
    expect(after.id).toBe(first.id);
    expect(after.team).toMatchObject({ id: first.id, display_name: "Team" });
  });
});

/**
 * Issue 13 §3: what a client needs to list and revoke a team's invitations. Listing: membership, then
 * `$read_members`, then `$invite_members`, the error naming the first missing. Revoking: `$remove_members`.
 */
describe("team invitations", () => {
  const { configure, email, emailProject, expectKnownError, post, signUpWithPassword, useServerAndSmtpForFile } = emailFlow;
  type Tokens = emailFlow.Tokens;
  useServerAndSmtpForFile();

  const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

  /** A team (made by the server, no default grants) with one pending invitation, and a signed-in member. */
  async function teamWithInvitation() {
    const project = await emailProject();
    await configure(project, { "rbac.defaultPermissions.teamCreator": {}, "rbac.defaultPermissions.teamMember": {} });
    const team = await api(emailFlow.server.url, "/teams", { method: "POST", headers: project.headers("server"), body: { display_name: "Rocket Team" } });
    expect(team.status).toBe(201);
    const member = await signUpWithPassword(project, email(), "correct horse battery");
    const joined = await api(emailFlow.server.url, `/team-memberships/${team.body.id}/${member.user_id}`, { method: "POST", headers: project.headers("server"), body: {} });
    expect(joined.status).toBe(201);
    const sent = await post(project, "/team-invitations/send-code", { team_id: team.body.id, email: email(), callback_url: INVITATION_PAGE }, { access: "server" });
    expect(sent.status).toBe(200);
    return { project, teamId: team.body.id as string, member, invitationId: sent.body.id as string };
  }

  async function grant(project: TestProject, teamId: string, userId: string, permissionId: string) {
    const granted = await api(emailFlow.server.url, `/team-permissions/${teamId}/${userId}/${permissionId}`, { method: "POST", headers: project.headers("server"), body: {} });
    expect(granted.status).toBe(201);
  }

  const asClient = (project: TestProject, tokens: Tokens) => ({ ...project.headers("client"), "x-stack-access-token": tokens.access_token });
  const list = (project: TestProject, teamId: string, tokens: Tokens) => api(emailFlow.server.url, `/team-invitations?team_id=${teamId}`, { headers: asClient(project, tokens) });
  const revoke = (project: TestProject, teamId: string, invitationId: string, tokens: Tokens) =>
    api(emailFlow.server.url, `/team-invitations/${invitationId}?team_id=${teamId}`, { method: "DELETE", headers: asClient(project, tokens) });

  function expectPermissionRequired(response: ApiResponse, teamId: string, userId: string, permissionId: string) {
    expectKnownError(response, "TEAM_PERMISSION_REQUIRED", 401);
    expect(response.body.details).toEqual({ team_id: teamId, user_id: userId, permission_id: permissionId });
  }

  describe("a client listing a team's invitations", () => {
    it("needs membership (for a team that does not exist too), then $read_members, then $invite_members", async () => {
      const { project, teamId, member, invitationId } = await teamWithInvitation();
      const outsider = await signUpWithPassword(project, email(), "correct horse battery");
      const notMember = await list(project, teamId, outsider);
      expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
      expect(notMember.body.details).toEqual({ team_id: teamId, user_id: outsider.user_id });
      const unknownTeam = crypto.randomUUID();
      expectKnownError(await list(project, unknownTeam, outsider), "TEAM_MEMBERSHIP_NOT_FOUND", 404);

      expectPermissionRequired(await list(project, teamId, member), teamId, member.user_id, "$read_members");
      await grant(project, teamId, member.user_id, "$invite_members");
      // Holding only $invite_members is not enough: $read_members is checked first.
      expectPermissionRequired(await list(project, teamId, member), teamId, member.user_id, "$read_members");
      await grant(project, teamId, member.user_id, "$read_members");
      const listed = await list(project, teamId, member);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ items: [expect.objectContaining({ id: invitationId, team_id: teamId })], is_paginated: false });
    });

    it("with $read_members alone is refused, naming $invite_members", async () => {
      const { project, teamId, member } = await teamWithInvitation();
      await grant(project, teamId, member.user_id, "$read_members");
      expectPermissionRequired(await list(project, teamId, member), teamId, member.user_id, "$invite_members");
    });
  });

  describe("a client revoking a team's invitation", () => {
    it("needs $remove_members ($invite_members and $read_members are not enough), and then revokes it", async () => {
      const { project, teamId, member, invitationId } = await teamWithInvitation();
      const outsider = await signUpWithPassword(project, email(), "correct horse battery");
      expectKnownError(await revoke(project, teamId, invitationId, outsider), "TEAM_MEMBERSHIP_NOT_FOUND", 404);

      await grant(project, teamId, member.user_id, "$invite_members");
      await grant(project, teamId, member.user_id, "$read_members");
      expectPermissionRequired(await revoke(project, teamId, invitationId, member), teamId, member.user_id, "$remove_members");
      expect((await list(project, teamId, member)).body.items).toHaveLength(1);

      await grant(project, teamId, member.user_id, "$remove_members");
      const revoked = await revoke(project, teamId, invitationId, member);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ success: true });
      expect((await list(project, teamId, member)).body).toEqual({ items: [], is_paginated: false });
    });

    it("with only $remove_members may revoke, though it may not list", async () => {
      const { project, teamId, member, invitationId } = await teamWithInvitation();
      await grant(project, teamId, member.user_id, "$remove_members");
      expectPermissionRequired(await list(project, teamId, member), teamId, member.user_id, "$read_members");
      expect((await revoke(project, teamId, invitationId, member)).status).toBe(200);
    });
  });
});

/**
 * Issue 13 §3: `GET /team-permissions` and `GET /project-permissions` list the directly granted ids only,
 * unless `recursive=true`; the default permission lists of a project's config come sorted by id.
 */
describe("permission lists", () => {
  async function define(project: TestProject, scope: "team" | "project", id: string, contained: string[] = []) {
    const response = await as(project, "admin", `/${scope}-permission-definitions`, { method: "POST", body: { id, contained_permission_ids: contained } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  const ids = (response: { status: number; body: { items: { id: string }[] } }) => {
    expect(response.status).toBe(200);
    return response.body.items.map((item) => item.id);
  };

  describe("GET /team-permissions", () => {
    it("lists only the direct grant without recursive or with recursive=false, and what it contains with recursive=true", async () => {
      const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
      await define(project, "team", "reader", ["$read_members"]);
      await define(project, "team", "editor", ["reader", "$update_team"]);
      const user = await createUser(project);
      const teamId = await createTeam(project, [user.id]);
      expect((await as(project, "server", `/team-permissions/${teamId}/${user.id}/editor`, { method: "POST", body: {} })).status).toBe(201);

      const base = `/team-permissions?team_id=${teamId}&user_id=${user.id}`;
      expect((await as(project, "server", base)).body).toEqual({ items: [{ id: "editor", user_id: user.id, team_id: teamId }], is_paginated: false });
      expect(ids(await as(project, "server", `${base}&recursive=false`))).toEqual(["editor"]);
      expect(ids(await as(project, "server", `${base}&recursive=true`))).toEqual(["$read_members", "$update_team", "editor", "reader"]);
      // A check for a contained permission finds it only when asked recursively.
      expect(ids(await as(project, "server", `${base}&permission_id=reader`))).toEqual([]);
      expect(ids(await as(project, "server", `${base}&permission_id=reader&recursive=true`))).toEqual(["reader"]);

      // The same for a client listing its own.
      const tokens = await signIn(project, user.id);
      expect(ids(await as(project, "client", `/team-permissions?team_id=${teamId}&user_id=me`, { tokens }))).toEqual(["editor"]);
      expect(ids(await as(project, "client", `/team-permissions?team_id=${teamId}&user_id=me&recursive=true`, { tokens }))).toEqual(["$read_members", "$update_team", "editor", "reader"]);
    });
  });

  describe("GET /project-permissions", () => {
    it("lists only the direct grant without recursive or with recursive=false, and what it contains with recursive=true", async () => {
      const project = await createTestProject(server);
      await define(project, "project", "read");
      await define(project, "project", "admin", ["read"]);
      const user = await createUser(project);
      expect((await as(project, "server", `/project-permissions/${user.id}/admin`, { method: "POST", body: {} })).status).toBe(201);

      expect((await as(project, "server", `/project-permissions?user_id=${user.id}`)).body).toEqual({ items: [{ id: "admin", user_id: user.id }], is_paginated: false });
      expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=false`))).toEqual(["admin"]);
      expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=true`))).toEqual(["admin", "read"]);

      const tokens = await signIn(project, user.id);
      expect(ids(await as(project, "client", "/project-permissions?user_id=me", { tokens }))).toEqual(["admin"]);
      expect(ids(await as(project, "client", "/project-permissions?user_id=me&recursive=true", { tokens }))).toEqual(["admin", "read"]);
    });
  });

  describe("the default permission lists of a project's config", () => {
    it("come sorted by id, whatever order they were set in", async () => {
      const project = await createTestProject(server, "Defaults", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
      for (const id of ["zeta", "alpha", "mid"]) await define(project, "team", id);
      for (const id of ["writer", "billing", "reader"]) await define(project, "project", id);
      await configure(project, {
        "rbac.defaultPermissions.teamCreator": { zeta: true, $update_team: true, alpha: true, mid: true },
        "rbac.defaultPermissions.teamMember": { mid: true, alpha: true, $read_members: true },
        "rbac.defaultPermissions.signUp": { writer: true, billing: true, reader: true },
      });
      const read = await as(project, "admin", "/internal/projects/current");
      expect(read.status).toBe(200);
      expect(read.body.config.team_creator_default_permissions).toEqual([{ id: "$update_team" }, { id: "alpha" }, { id: "mid" }, { id: "zeta" }]);
      expect(read.body.config.team_member_default_permissions).toEqual([{ id: "$read_members" }, { id: "alpha" }, { id: "mid" }]);
      expect(read.body.config.user_default_permissions).toEqual([{ id: "billing" }, { id: "reader" }, { id: "writer" }]);
    });
  });
});

/**
 * Issue 13 §3, user and team API keys as the protocol answers: lists newest first; a second revoke keeps
 * the first revocation time; `user_id` optional when reading one key, required (in the protocol's words)
 * for a list; the plain-text 403 for another user's keys; API_KEY_NOT_FOUND for a client creating a team
 * key without `$manage_api_keys`.
 */
describe("API keys", () => {
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
});
