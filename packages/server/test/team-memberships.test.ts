import { describe, expect, it } from "vitest";
import { createTestProject } from "./support/test-server.js";
import { server, as, createUser, expectKnownError, expectSchemaError, useServerForFile } from "./support/users-fixture.js";
import { addMember, configureTeams, permissionsOf, serverTeam, signedInUser } from "./support/teams-fixture.js";

useServerForFile();

const memberIds = async (project: Parameters<typeof as>[0], teamId: string) =>
  (await as(project, "server", `/team-member-profiles?team_id=${teamId}`)).body.items.map((p: any) => p.user_id).sort();

describe("POST /team-memberships/{team_id}/{user_id}", () => {
  it("adds a user with the member default permissions", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$read_members", "$invite_members"] });
    const user = await createUser(project);
    const team = await serverTeam(project);
    const added = await as(project, "server", `/team-memberships/${team.id}/${user.id}`, { method: "POST", body: {} });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ team_id: team.id, user_id: user.id });
    expect(await permissionsOf(server.db, team.id, user.id)).toEqual(["$invite_members", "$read_members"]);
    expect(await memberIds(project, team.id)).toEqual([user.id]);
    // Joining does not change the user's selected team.
    expect((await as(project, "server", `/users/${user.id}`)).body.selected_team_id).toBeNull();
  });

  it("answers TEAM_MEMBERSHIP_ALREADY_EXISTS to a second add, also when several race", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const team = await serverTeam(project);
    const results = await Promise.all(Array.from({ length: 6 }, () => as(project, "server", `/team-memberships/${team.id}/${user.id}`, { method: "POST", body: {} })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectKnownError(r, "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
    expectKnownError(await as(project, "server", `/team-memberships/${team.id}/${user.id}`, { method: "POST", body: {} }), "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
    expect(await memberIds(project, team.id)).toEqual([user.id]);
  });

  it("answers USER_NOT_FOUND and TEAM_NOT_FOUND for unknown or other projects' users and teams", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const user = await createUser(project);
    const team = await serverTeam(project);
    const foreignUser = await createUser(other);
    const foreignTeam = await serverTeam(other);
    expectKnownError(await as(project, "server", `/team-memberships/${team.id}/${crypto.randomUUID()}`, { method: "POST", body: {} }), "USER_NOT_FOUND", 404);
    expectKnownError(await as(project, "server", `/team-memberships/${team.id}/${foreignUser.id}`, { method: "POST", body: {} }), "USER_NOT_FOUND", 404);
    const missingTeam = await as(project, "server", `/team-memberships/${foreignTeam.id}/${user.id}`, { method: "POST", body: {} });
    expectKnownError(missingTeam, "TEAM_NOT_FOUND", 404);
    expect(missingTeam.body.details).toEqual({ team_id: foreignTeam.id });
    expect(await memberIds(other, foreignTeam.id)).toEqual([]);
  });

  it("is for servers only, takes an empty object, and resolves me", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const team = await serverTeam(project);
    const client = await as(project, "client", `/team-memberships/${team.id}/me`, { method: "POST", tokens: user.tokens, body: {} });
    expectKnownError(client, "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(await memberIds(project, team.id)).toEqual([]);
    expectSchemaError(await as(project, "server", `/team-memberships/${team.id}/${user.id}`, { method: "POST", body: { role: "admin" } }), "body contains unknown properties: role");
    expectSchemaError(await as(project, "server", `/team-memberships/not-a-team/${user.id}`, { method: "POST", body: {} }), "params.team_id must be a valid UUID");
    expectKnownError(await as(project, "server", `/team-memberships/${team.id}/me`, { method: "POST", body: {} }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const me = await as(project, "server", `/team-memberships/${team.id}/me`, { method: "POST", tokens: user.tokens, body: {} });
    expect(me.status).toBe(201);
    expect(me.body).toEqual({ team_id: team.id, user_id: user.id });
  });
});

describe("DELETE /team-memberships/{team_id}/{user_id}", () => {
  it("lets anyone leave a team with me: membership, permissions and selection go", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$read_members"] });
    const user = await signedInUser(project);
    const stays = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id });
    await addMember(project, team.id, stays.id);
    await as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: team.id } });
    expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.selected_team_id).toBe(team.id);

    const left = await as(project, "client", `/team-memberships/${team.id}/me`, { method: "DELETE", tokens: user.tokens, body: {} });
    expect(left.status).toBe(200);
    expect(left.body).toEqual({ success: true });
    expect(await memberIds(project, team.id)).toEqual([stays.id]);
    expect(await permissionsOf(server.db, team.id, user.id)).toEqual([]);
    expect(await permissionsOf(server.db, team.id, stays.id)).toEqual(["$read_members"]);
    const me = await as(project, "client", "/users/me", { tokens: user.tokens });
    expect(me.body).toMatchObject({ selected_team_id: null, selected_team: null });
    expectKnownError(await as(project, "client", `/teams/${team.id}`, { tokens: user.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);

    // Leaving again: not a member any more.
    const again = await as(project, "client", `/team-memberships/${team.id}/me`, { method: "DELETE", tokens: user.tokens, body: {} });
    expectKnownError(again, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(again.body.details).toEqual({ team_id: team.id, user_id: user.id });
    expectKnownError(await as(project, "client", `/team-memberships/${team.id}/me`, { method: "DELETE", body: {} }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("refuses a client removing someone else without $remove_members, or from a team it is not in, changing nothing", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$read_members"] });
    const member = await signedInUser(project);
    const outsider = await signedInUser(project);
    const victim = await createUser(project);
    const team = await serverTeam(project);
    await addMember(project, team.id, member.id);
    await addMember(project, team.id, victim.id);

    const denied = await as(project, "client", `/team-memberships/${team.id}/${victim.id}`, { method: "DELETE", tokens: member.tokens, body: {} });
    expectKnownError(denied, "TEAM_PERMISSION_REQUIRED", 401);
    expect(denied.body.details).toEqual({ team_id: team.id, user_id: member.id, permission_id: "$remove_members" });
    const notMember = await as(project, "client", `/team-memberships/${team.id}/${victim.id}`, { method: "DELETE", tokens: outsider.tokens, body: {} });
    expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(notMember.body.details).toEqual({ team_id: team.id, user_id: outsider.id });
    expectKnownError(await as(project, "client", `/team-memberships/${team.id}/${victim.id}`, { method: "DELETE", body: {} }), "USER_AUTHENTICATION_REQUIRED", 401);
    expect(await memberIds(project, team.id)).toEqual([member.id, victim.id].sort());
  });

  it("lets a member holding $remove_members remove others", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    const owner = await signedInUser(project);
    const victim = await createUser(project);
    const created = await as(project, "client", "/teams", { method: "POST", tokens: owner.tokens, body: { display_name: "Club" } });
    const teamId = created.body.id;
    await addMember(project, teamId, victim.id);
    const removed = await as(project, "client", `/team-memberships/${teamId}/${victim.id}`, { method: "DELETE", tokens: owner.tokens, body: {} });
    expect(removed.status).toBe(200);
    expect(await memberIds(project, teamId)).toEqual([owner.id]);
    expectKnownError(await as(project, "client", `/team-memberships/${teamId}/${victim.id}`, { method: "DELETE", tokens: owner.tokens, body: {} }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await as(project, "client", `/team-memberships/${teamId}/${crypto.randomUUID()}`, { method: "DELETE", tokens: owner.tokens, body: {} }), "USER_NOT_FOUND", 404);
  });

  it("removes once when a member leaves and is removed at the same moment, and edits of the profile meanwhile never fail", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    const owner = await signedInUser(project);
    const member = await signedInUser(project);
    const created = await as(project, "client", "/teams", { method: "POST", tokens: owner.tokens, body: { display_name: "Busy" } });
    const teamId = created.body.id;
    await addMember(project, teamId, member.id);
    const results = await Promise.all([
      as(project, "client", `/team-memberships/${teamId}/me`, { method: "DELETE", tokens: member.tokens, body: {} }),
      as(project, "client", `/team-memberships/${teamId}/${member.id}`, { method: "DELETE", tokens: owner.tokens, body: {} }),
      as(project, "server", `/team-memberships/${teamId}/${member.id}`, { method: "DELETE" }),
      as(project, "client", `/team-member-profiles/${teamId}/me`, { method: "PATCH", tokens: member.tokens, body: { display_name: "Still here?" } }),
    ]);
    const removals = results.slice(0, 3);
    expect(removals.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of removals.filter((r) => r.status !== 200)) expectKnownError(r, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    if (results[3]!.status !== 200) expectKnownError(results[3]!, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(await memberIds(project, teamId)).toEqual([owner.id]);
  });

  it("lets a server remove any member, with USER_NOT_FOUND and TEAM_MEMBERSHIP_NOT_FOUND otherwise", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id });
    await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { selected_team_id: team.id } });
    expectKnownError(await as(project, "server", `/team-memberships/${team.id}/${crypto.randomUUID()}`, { method: "DELETE" }), "USER_NOT_FOUND", 404);
    expectKnownError(await as(project, "server", `/team-memberships/${crypto.randomUUID()}/${user.id}`, { method: "DELETE" }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect((await as(project, "server", `/team-memberships/${team.id}/${user.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await memberIds(project, team.id)).toEqual([]);
    expect((await as(project, "server", `/users/${user.id}`)).body.selected_team_id).toBeNull();
  });
});

describe("selected team", () => {
  it("can only be a team the user is in, and never stays on a team left while selecting it", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const team = await serverTeam(project);
    const foreign = await serverTeam(project);
    expectKnownError(await as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: foreign.id } }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);

    for (let round = 0; round < 5; round++) {
      await addMember(project, team.id, user.id);
      const [select, leave] = await Promise.all([
        as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: team.id } }),
        as(project, "client", `/team-memberships/${team.id}/me`, { method: "DELETE", tokens: user.tokens, body: {} }),
      ]);
      expect(leave.status).toBe(200);
      if (select.status !== 200) expectKnownError(select, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
      // Whichever came first, the user is no longer in the team and has not selected it.
      const me = await as(project, "client", "/users/me", { tokens: user.tokens });
      expect(me.body.selected_team_id).toBeNull();
    }
  });

  it("never deadlocks a selection racing the deletion of the team", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    for (let round = 0; round < 10; round++) {
      const team = await serverTeam(project, { creator_user_id: user.id });
      const [select, remove] = await Promise.all([
        as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: team.id } }),
        as(project, "server", `/teams/${team.id}`, { method: "DELETE" }),
      ]);
      expect(remove.status).toBe(200);
      if (select.status !== 200) expectKnownError(select, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
      expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.selected_team_id).toBeNull();
    }
  });
});

describe("deleting a user", () => {
  it("removes their memberships, profiles and permissions and leaves the other members as they were", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$read_members"] });
    const leaving = await createUser(project);
    const staying = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: leaving.id });
    await addMember(project, team.id, staying.id);
    await as(project, "server", `/team-member-profiles/${team.id}/${leaving.id}`, { method: "PATCH", body: { display_name: "Leaver" } });

    expect((await as(project, "server", `/users/${leaving.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await memberIds(project, team.id)).toEqual([staying.id]);
    const rows = await server.db.selectFrom("team_members").select("user_id").where("user_id", "=", leaving.id).execute();
    expect(rows).toEqual([]);
    expect(await permissionsOf(server.db, team.id, leaving.id)).toEqual([]);
    expect(await permissionsOf(server.db, team.id, staying.id)).toEqual(["$read_members"]);
    expect((await as(project, "server", `/teams/${team.id}`)).status).toBe(200);
  });
});
