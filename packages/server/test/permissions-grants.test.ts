import { describe, expect, it } from "vitest";
import { grantDefaultTeamPermissions, hasTeamPermission } from "../src/services/team-permission-checks.js";
import { getProject } from "../src/services/projects.js";
import { CONFIG_WITHOUT_TEAM_ROLES, createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createTeam, createUser, email, expectKnownError, expectSchemaError, server, signIn, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

const define = async (project: TestProject, scope: "team" | "project", id: string, contained: string[] = []) => {
  const response = await as(project, "admin", `/${scope}-permission-definitions`, { method: "POST", body: { id, contained_permission_ids: contained } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
};
const grantTeam = (project: TestProject, teamId: string, userId: string, permissionId: string) =>
  as(project, "server", `/team-permissions/${teamId}/${userId}/${permissionId}`, { method: "POST", body: {} });
const revokeTeam = (project: TestProject, teamId: string, userId: string, permissionId: string) =>
  as(project, "server", `/team-permissions/${teamId}/${userId}/${permissionId}`, { method: "DELETE" });
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((item) => item.id);

/** A project with one team, two members and a diamond: top ⊇ left, right ⊇ bottom. */
async function diamondProject() {
  const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
  await define(project, "team", "bottom", ["$read_members"]);
  await define(project, "team", "left", ["bottom"]);
  await define(project, "team", "right", ["bottom"]);
  await define(project, "team", "top", ["left", "right"]);
  const alice = await createUser(project, { primary_email: email() });
  const bob = await createUser(project, { primary_email: email() });
  const teamId = await createTeam(project, [alice.id, bob.id]);
  return { project, alice, bob, teamId };
}

describe("team permissions", () => {
  it("grants a permission and lists what it implies through a diamond, each permission once", async () => {
    const { project, alice, teamId } = await diamondProject();
    const granted = await grantTeam(project, teamId, alice.id, "top");
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({ id: "top", user_id: alice.id, team_id: teamId });

    const recursive = await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}&recursive=true`);
    expect(recursive.status).toBe(200);
    expect(recursive.body.is_paginated).toBe(false);
    expect(recursive.body.items).toEqual(["$read_members", "bottom", "left", "right", "top"].map((id) => ({ id, user_id: alice.id, team_id: teamId })));
    // Without recursive=true only the direct grant (issue 13 §3).
    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}`))).toEqual(["top"]);
    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}&recursive=false`))).toEqual(["top"]);

    // The check a developer makes: the recursive list filtered by one id.
    const check = await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}&permission_id=bottom&recursive=true`);
    expect(check.body.items).toEqual([{ id: "bottom", user_id: alice.id, team_id: teamId }]);
    expect((await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}&permission_id=bottom`)).body.items).toEqual([]);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, alice.id, "$read_members")).toBe(true);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, alice.id, "$delete_team")).toBe(false);
  });

  it("follows definition changes: a new containment, a rename and a delete", async () => {
    const { project, alice, teamId } = await diamondProject();
    await grantTeam(project, teamId, alice.id, "left");
    expect(await hasTeamPermission(server.db, project.projectId, teamId, alice.id, "$update_team")).toBe(false);
    await as(project, "admin", "/team-permission-definitions/left", { method: "PATCH", body: { contained_permission_ids: ["bottom", "$update_team"] } });
    expect(await hasTeamPermission(server.db, project.projectId, teamId, alice.id, "$update_team")).toBe(true);

    // A change through a raw config override, or written by another process straight into the row, is seen
    // by the very next check: the compiled graph is keyed by the project row's version.
    await configure(project, { "rbac.permissions.left.containedPermissionIds.$update_team": null });
    expect(await hasTeamPermission(server.db, project.projectId, teamId, alice.id, "$update_team")).toBe(false);
    const stored = await server.db.selectFrom("projects").select("config_override").where("id", "=", project.projectId).executeTakeFirstOrThrow();
    const withDelete = { ...stored.config_override, "rbac.permissions.left.containedPermissionIds.$delete_team": true };
    await server.db.updateTable("projects").set({ config_override: JSON.stringify(withDelete) }).where("id", "=", project.projectId).execute();
    expect(await hasTeamPermission(server.db, project.projectId, teamId, alice.id, "$delete_team")).toBe(true);

    await as(project, "admin", "/team-permission-definitions/left", { method: "PATCH", body: { id: "editor" } });
    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}&recursive=false`))).toEqual(["editor"]);

    await as(project, "admin", "/team-permission-definitions/editor", { method: "DELETE" });
    expect((await as(project, "server", `/team-permissions?user_id=${alice.id}`)).body.items).toEqual([]);
    // Defining the id again does not bring the old grant back.
    await define(project, "team", "editor");
    expect((await as(project, "server", `/team-permissions?user_id=${alice.id}`)).body.items).toEqual([]);
  });

  it("lists across teams and users for a server, sorted by team, user and id", async () => {
    const { project, alice, bob, teamId } = await diamondProject();
    const otherTeam = await createTeam(project, [alice.id]);
    await grantTeam(project, teamId, bob.id, "bottom");
    await grantTeam(project, teamId, alice.id, "right");
    await grantTeam(project, otherTeam, alice.id, "$delete_team");
    const all = await as(project, "server", "/team-permissions?recursive=false");
    const expected = [
      { id: "right", user_id: alice.id, team_id: teamId },
      { id: "bottom", user_id: bob.id, team_id: teamId },
      { id: "$delete_team", user_id: alice.id, team_id: otherTeam },
    ].sort((a, b) => (a.team_id < b.team_id ? -1 : a.team_id > b.team_id ? 1 : a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0));
    expect(all.body.items).toEqual(expected);
    expect((await as(project, "server", `/team-permissions?team_id=${otherTeam}`)).body.items).toEqual([{ id: "$delete_team", user_id: alice.id, team_id: otherTeam }]);
  });

  it("grants once however often it is asked, even at the same moment", async () => {
    const { project, alice, teamId } = await diamondProject();
    const responses = await Promise.all(Array.from({ length: 8 }, () => grantTeam(project, teamId, alice.id, "top")));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    const rows = await server.db.selectFrom("team_member_permissions").selectAll().where("team_id", "=", teamId).execute();
    expect(rows).toHaveLength(1);
  });

  it("never keeps a grant of a permission deleted at the same moment", async () => {
    const { project, alice, teamId } = await diamondProject();
    for (let round = 0; round < 6; round++) {
      const id = `racing_${round}`;
      await define(project, "team", id);
      const [granted, deleted] = await Promise.all([
        grantTeam(project, teamId, alice.id, id),
        as(project, "admin", `/team-permission-definitions/${id}`, { method: "DELETE" }),
      ]);
      expect(deleted.status).toBe(200);
      // The grant came first (and was deleted with the definition) or found the definition gone.
      if (granted.status !== 201) expectKnownError(granted, "PERMISSION_NOT_FOUND", 404);
      const rows = await server.db.selectFrom("team_member_permissions").select("permission_id").where("permission_id", "=", id).execute();
      expect(rows).toEqual([]);
    }
  });

  it("revokes a direct grant; a permission held only through another is not a grant", async () => {
    const { project, alice, teamId } = await diamondProject();
    await grantTeam(project, teamId, alice.id, "top");
    const notDirect = await revokeTeam(project, teamId, alice.id, "left");
    expectKnownError(notDirect, "TEAM_PERMISSION_NOT_FOUND", 401);
    expect(notDirect.body.error).toBe(`User ${alice.id} does not have permission left in team ${teamId}.`);
    expect(notDirect.body.details).toEqual({ team_id: teamId, user_id: alice.id, permission_id: "left" });
    const revoked = await revokeTeam(project, teamId, alice.id, "top");
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}`)).body.items).toEqual([]);
    expectKnownError(await revokeTeam(project, teamId, alice.id, "top"), "TEAM_PERMISSION_NOT_FOUND", 401);
  });

  it("answers the protocol's errors for missing members, users and permissions", async () => {
    const { project, alice, teamId } = await diamondProject();
    const outsider = await createUser(project, { primary_email: email() });
    const notMember = await grantTeam(project, teamId, outsider.id, "top");
    expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(notMember.body.error).toBe(`User ${outsider.id} is not found in team ${teamId}.`);
    expectKnownError(await revokeTeam(project, teamId, outsider.id, "top"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await grantTeam(project, crypto.randomUUID(), alice.id, "top"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);

    const ghost = crypto.randomUUID();
    const noUser = await grantTeam(project, teamId, ghost, "top");
    expectKnownError(noUser, "USER_ID_DOES_NOT_EXIST", 400);
    expect(noUser.body.details).toEqual({ user_id: ghost });

    const undefinedPermission = await grantTeam(project, teamId, alice.id, "nope");
    expectKnownError(undefinedPermission, "PERMISSION_NOT_FOUND", 404);
    expect(undefinedPermission.body.error).toBe('Permission "nope" not found. Make sure you created it on the dashboard.');

    await define(project, "project", "project_wide");
    const wrongScope = await grantTeam(project, teamId, alice.id, "project_wide");
    expectKnownError(wrongScope, "WRONG_PERMISSION_SCOPE", 404);
    expect(wrongScope.body.details).toEqual({ permission_id: "project_wide", expected_scope: "team", actual_scope: "project" });

    // A user of another project is no user here.
    const elsewhere = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    const stranger = await createUser(elsewhere, { primary_email: email() });
    expectKnownError(await grantTeam(project, teamId, stranger.id, "top"), "USER_ID_DOES_NOT_EXIST", 400);
    expectKnownError(await grantTeam(elsewhere, teamId, alice.id, "top"), "USER_ID_DOES_NOT_EXIST", 400);
  });

  it("checks paths, queries and bodies against the protocol's schemas", async () => {
    const { project, alice, teamId } = await diamondProject();
    expectSchemaError(await grantTeam(project, "not-a-uuid", alice.id, "top"), "params.team_id must be a valid UUID");
    expectSchemaError(await grantTeam(project, teamId, alice.id, "$made_up"), "Invalid system permission");
    expectSchemaError(await grantTeam(project, teamId, alice.id, "UPPER"), "Only lowercase letters");
    expectSchemaError(await as(project, "server", `/team-permissions/${teamId}/${alice.id}/top`, { method: "POST", body: { extra: true } }), "unknown properties: extra");
    expectSchemaError(await as(project, "server", `/team-permissions?recursive=yes`), "query.recursive must be one of the following values: true, false");
    expectSchemaError(await as(project, "server", `/team-permissions?team_id=x`), "query.team_id must be a valid UUID");
    expectSchemaError(await as(project, "server", `/team-permissions?user_id=x`), "query.user_id must be a valid UUID");
  });

  it("lets a server name its signed-in user as me, and needs one for me", async () => {
    const { project, alice, teamId } = await diamondProject();
    const tokens = await signIn(project, alice.id);
    const headers = { method: "POST", body: {}, tokens };
    expect((await as(project, "server", `/team-permissions/${teamId}/me/top`, headers)).body).toEqual({ id: "top", user_id: alice.id, team_id: teamId });
    expectKnownError(await grantTeam(project, teamId, "me", "top"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lets a client list only its own user's permissions", async () => {
    const { project, alice, bob, teamId } = await diamondProject();
    await grantTeam(project, teamId, alice.id, "left");
    await grantTeam(project, teamId, bob.id, "top");
    const tokens = await signIn(project, alice.id);

    const own = await as(project, "client", `/team-permissions?team_id=${teamId}&user_id=me&recursive=true`, { tokens });
    expect(own.status).toBe(200);
    expect(ids(own)).toEqual(["$read_members", "bottom", "left"]);
    expect(ids(await as(project, "client", `/team-permissions?user_id=${alice.id.toUpperCase()}&permission_id=left`, { tokens }))).toEqual(["left"]);

    // Someone else's, everyone's, or without a signed-in user: refused, whatever the team.
    for (const query of [`user_id=${bob.id}`, `team_id=${teamId}&user_id=${bob.id}`, `team_id=${teamId}`, ""]) {
      const response = await as(project, "client", `/team-permissions?${query}`, { tokens });
      expect(response.status, query).toBe(403);
      expect(response.text).toContain('Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user');
    }
    expectKnownError(await as(project, "client", `/team-permissions?user_id=me`), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);

    // And never grants or revokes.
    const grant = await as(project, "client", `/team-permissions/${teamId}/${alice.id}/top`, { method: "POST", body: {}, tokens });
    expectKnownError(grant, "INSUFFICIENT_ACCESS_TYPE", 401);
    expectKnownError(await as(project, "client", `/team-permissions/${teamId}/${bob.id}/top`, { method: "DELETE", tokens }), "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${alice.id}&recursive=false`))).toEqual(["left"]);
    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${bob.id}&recursive=false`))).toEqual(["top"]);
  });

  it("goes with the membership, the team and the user", async () => {
    const { project, alice, bob, teamId } = await diamondProject();
    const otherTeam = await createTeam(project, [alice.id, bob.id]);
    for (const team of [teamId, otherTeam]) {
      await grantTeam(project, team, alice.id, "top");
      await grantTeam(project, team, bob.id, "top");
    }
    // Leaving a team takes that team's permissions with it.
    expect((await as(project, "server", `/team-memberships/${teamId}/${bob.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await as(project, "server", `/team-permissions?user_id=${bob.id}&recursive=false`)).body.items).toEqual([{ id: "top", user_id: bob.id, team_id: otherTeam }]);
    // Joining again starts from the member defaults (none here), not from the old grants.
    expect((await as(project, "server", `/team-memberships/${teamId}/${bob.id}`, { method: "POST", body: {} })).status).toBe(201);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, bob.id, "top")).toBe(false);

    expect((await as(project, "server", `/users/${alice.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await server.db.selectFrom("team_member_permissions").selectAll().where("user_id", "=", alice.id).execute()).toEqual([]);

    expect((await as(project, "server", `/teams/${otherTeam}`, { method: "DELETE" })).status).toBe(200);
    expect((await as(project, "server", "/team-permissions")).body.items).toEqual([]);
  });
});

describe("default team permissions", () => {
  it("gives a team's creator and its later members the project's default sets, skipping undefined ids", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "team", "team_admin", ["$update_team", "$delete_team", "$read_members", "$remove_members", "$invite_members", "$manage_api_keys"]);
    await define(project, "team", "team_member", ["$read_members", "$invite_members"]);
    await configure(project, {
      "rbac.defaultPermissions.teamCreator": { team_admin: true },
      "rbac.defaultPermissions.teamMember": { team_member: true, not_defined: true },
    });
    const creator = await createUser(project, { primary_email: email() });
    const member = await createUser(project, { primary_email: email() });
    const team = await as(project, "server", "/teams", { method: "POST", body: { display_name: "Defaults", creator_user_id: creator.id } });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.id;
    expect((await as(project, "server", `/team-memberships/${teamId}/${member.id}`, { method: "POST", body: {} })).status).toBe(201);

    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${creator.id}&recursive=false`))).toEqual(["team_admin"]);
    expect(ids(await as(project, "server", `/team-permissions?team_id=${teamId}&user_id=${member.id}&recursive=true`))).toEqual(["$invite_members", "$read_members", "team_member"]);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, creator.id, "$delete_team")).toBe(true);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, member.id, "$delete_team")).toBe(false);
  });

  it("are granted by grantDefaultTeamPermissions to a member added by other means", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "team", "team_member", ["$read_members"]);
    await configure(project, { "rbac.defaultPermissions.teamMember": { team_member: true } });
    const member = await createUser(project, { primary_email: email() });
    const teamId = await createTeam(project, [member.id]);
    await grantDefaultTeamPermissions(server.db, await getProject(server.db, project.projectId), teamId, member.id, "member");
    expect(await hasTeamPermission(server.db, project.projectId, teamId, member.id, "$read_members")).toBe(true);
  });
});
