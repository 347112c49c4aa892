import { describe, expect, it } from "vitest";
import { createTestProject } from "./support/test-server.js";
import { server, as, createUser, expectKnownError, expectSchemaError, SERVER_READ_KEYS, useServerForFile } from "./support/users-fixture.js";
import { addMember, configureTeams, serverTeam, signedInUser } from "./support/teams-fixture.js";

useServerForFile();

const CLIENT_PROFILE_KEYS = ["display_name", "profile_image_url", "team_id", "user_id"];

/** A team with two signed-in members: `reader` holds `$read_members` (member default), `plain` does not. */
async function teamWithMembers() {
  const project = await createTestProject(server);
  await configureTeams(project, { creator: ["$read_members"], member: [] });
  const reader = await signedInUser(project, { display_name: "Reader", profile_image_url: "https://example.com/reader.png" });
  const plain = await signedInUser(project, { display_name: "Plain" });
  const outsider = await signedInUser(project, { display_name: "Outsider" });
  const team = await serverTeam(project, { creator_user_id: reader.id });
  await addMember(project, team.id, plain.id);
  return { project, reader, plain, outsider, team };
}

describe("GET /team-member-profiles", () => {
  it("lists every member for a member holding $read_members, the user's name and image standing in for unset ones", async () => {
    const { project, reader, plain, team } = await teamWithMembers();
    const listed = await as(project, "client", `/team-member-profiles?team_id=${team.id}`, { tokens: reader.tokens });
    expect(listed.status).toBe(200);
    expect(listed.body.is_paginated).toBe(false);
    expect(listed.body.items).toEqual([
      { team_id: team.id, user_id: reader.id, display_name: "Reader", profile_image_url: "https://example.com/reader.png" },
      { team_id: team.id, user_id: plain.id, display_name: "Plain", profile_image_url: null },
    ]);
    const filtered = await as(project, "client", `/team-member-profiles?team_id=${team.id}&user_id=${plain.id}`, { tokens: reader.tokens });
    expect(filtered.body.items.map((p: any) => p.user_id)).toEqual([plain.id]);
  });

  it("shows a member without $read_members only their own profile", async () => {
    const { project, plain, reader, team } = await teamWithMembers();
    for (const userId of ["me", plain.id]) {
      const own = await as(project, "client", `/team-member-profiles?team_id=${team.id}&user_id=${userId}`, { tokens: plain.tokens });
      expect(own.status).toBe(200);
      expect(own.body.items).toEqual([{ team_id: team.id, user_id: plain.id, display_name: "Plain", profile_image_url: null }]);
    }
    for (const path of [`/team-member-profiles?team_id=${team.id}`, `/team-member-profiles?team_id=${team.id}&user_id=${reader.id}`]) {
      const denied = await as(project, "client", path, { tokens: plain.tokens });
      expectKnownError(denied, "TEAM_PERMISSION_REQUIRED", 401);
      expect(denied.body.details).toEqual({ team_id: team.id, user_id: plain.id, permission_id: "$read_members" });
    }
  });

  it("refuses a client outside the team, without a team_id, or signed out", async () => {
    const { project, outsider, team } = await teamWithMembers();
    const foreign = await as(project, "client", `/team-member-profiles?team_id=${team.id}`, { tokens: outsider.tokens });
    expectKnownError(foreign, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(foreign.body.details).toEqual({ team_id: team.id, user_id: outsider.id });
    expectKnownError(await as(project, "client", `/team-member-profiles?team_id=${team.id}&user_id=me`, { tokens: outsider.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const noTeam = await as(project, "client", "/team-member-profiles", { tokens: outsider.tokens });
    expect(noTeam.status).toBe(400);
    expect(noTeam.text).toBe("team_id is required for access type client");
    expectKnownError(await as(project, "client", `/team-member-profiles?team_id=${team.id}`), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectSchemaError(await as(project, "client", "/team-member-profiles?team_id=abc", { tokens: outsider.tokens }), "query.team_id must be a valid UUID");
  });

  it("lists for a server by team and/or user, with the whole server user, and checks both exist", async () => {
    const { project, reader, plain, team } = await teamWithMembers();
    const second = await serverTeam(project, { creator_user_id: plain.id });
    const byTeam = await as(project, "server", `/team-member-profiles?team_id=${team.id}`);
    expect(byTeam.body.items.map((p: any) => p.user_id)).toEqual([reader.id, plain.id]);
    expect(Object.keys(byTeam.body.items[0]).sort()).toEqual([...CLIENT_PROFILE_KEYS, "user"].sort());
    expect(Object.keys(byTeam.body.items[0].user).sort()).toEqual(SERVER_READ_KEYS);
    expect(byTeam.body.items[0].user).toMatchObject({ id: reader.id, display_name: "Reader" });
    const byUser = await as(project, "server", `/team-member-profiles?user_id=${plain.id}`);
    expect(byUser.body.items.map((p: any) => p.team_id)).toEqual([team.id, second.id]);
    expectKnownError(await as(project, "server", `/team-member-profiles?team_id=${crypto.randomUUID()}`), "TEAM_NOT_FOUND", 404);
    expectKnownError(await as(project, "server", `/team-member-profiles?user_id=${crypto.randomUUID()}`), "USER_NOT_FOUND", 404);
    const other = await createTestProject(server);
    expectKnownError(await as(other, "server", `/team-member-profiles?team_id=${team.id}`), "TEAM_NOT_FOUND", 404);
  });
});

describe("GET /team-member-profiles/{team_id}/{user_id}", () => {
  it("shows a member their own profile, and others' only with $read_members", async () => {
    const { project, reader, plain, outsider, team } = await teamWithMembers();
    const own = await as(project, "client", `/team-member-profiles/${team.id}/me`, { tokens: plain.tokens });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ team_id: team.id, user_id: plain.id, display_name: "Plain", profile_image_url: null });
    const other = await as(project, "client", `/team-member-profiles/${team.id}/${plain.id}`, { tokens: reader.tokens });
    expect(other.body.user_id).toBe(plain.id);
    expectKnownError(await as(project, "client", `/team-member-profiles/${team.id}/${reader.id}`, { tokens: plain.tokens }), "TEAM_PERMISSION_REQUIRED", 401);
    expectKnownError(await as(project, "client", `/team-member-profiles/${team.id}/${reader.id}`, { tokens: outsider.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    // Even someone who can read members learns nothing about non-members beyond "not in this team".
    expectKnownError(await as(project, "client", `/team-member-profiles/${team.id}/${outsider.id}`, { tokens: reader.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await as(project, "client", `/team-member-profiles/${team.id}/me`, { tokens: outsider.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("shows a server any member with the server user, and USER_NOT_FOUND / TEAM_MEMBERSHIP_NOT_FOUND otherwise", async () => {
    const { project, plain, outsider, team } = await teamWithMembers();
    const read = await as(project, "server", `/team-member-profiles/${team.id}/${plain.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ team_id: team.id, user_id: plain.id, display_name: "Plain", user: { id: plain.id } });
    expectKnownError(await as(project, "server", `/team-member-profiles/${team.id}/${outsider.id}`), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await as(project, "server", `/team-member-profiles/${team.id}/${crypto.randomUUID()}`), "USER_NOT_FOUND", 404);
  });
});

describe("PATCH /team-member-profiles/{team_id}/{user_id}", () => {
  it("lets a member set their name and image in this team only, separate from their user", async () => {
    const { project, plain, team } = await teamWithMembers();
    const second = await serverTeam(project);
    await addMember(project, second.id, plain.id);
    const updated = await as(project, "client", `/team-member-profiles/${team.id}/me`, {
      method: "PATCH",
      tokens: plain.tokens,
      body: { display_name: "Plain at work", profile_image_url: "https://example.com/work.png" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ team_id: team.id, user_id: plain.id, display_name: "Plain at work", profile_image_url: "https://example.com/work.png" });
    expect((await as(project, "client", `/team-member-profiles/${second.id}/me`, { tokens: plain.tokens })).body.display_name).toBe("Plain");
    expect((await as(project, "client", "/users/me", { tokens: plain.tokens })).body.display_name).toBe("Plain");

    // Clearing the team image falls back to the user's own again.
    const cleared = await as(project, "client", `/team-member-profiles/${team.id}/${plain.id}`, { method: "PATCH", tokens: plain.tokens, body: { profile_image_url: null } });
    expect(cleared.body).toMatchObject({ display_name: "Plain at work", profile_image_url: null });
  });

  it("refuses a client changing someone else's profile, even with $read_members, and changes nothing", async () => {
    const { project, reader, plain, outsider, team } = await teamWithMembers();
    const denied = await as(project, "client", `/team-member-profiles/${team.id}/${plain.id}`, { method: "PATCH", tokens: reader.tokens, body: { display_name: "Hacked" } });
    expect(denied.status).toBe(403);
    expect(denied.text).toBe("Cannot update another user's profile");
    const foreign = await as(project, "client", `/team-member-profiles/${team.id}/me`, { method: "PATCH", tokens: outsider.tokens, body: { display_name: "Intruder" } });
    expectKnownError(foreign, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectSchemaError(await as(project, "client", `/team-member-profiles/${team.id}/me`, { method: "PATCH", tokens: plain.tokens, body: { user_id: reader.id } }), "body contains unknown properties: user_id");
    expectSchemaError(await as(project, "client", `/team-member-profiles/${team.id}/me`, { method: "PATCH", tokens: plain.tokens, body: { profile_image_url: "no url" } }), "body.profile_image_url");
    const listed = await as(project, "server", `/team-member-profiles?team_id=${team.id}`);
    expect(listed.body.items.map((p: any) => p.display_name)).toEqual(["Reader", "Plain"]);
    expect(await server.db.selectFrom("team_members").select("user_id").where("user_id", "=", outsider.id).execute()).toEqual([]);
  });

  it("lets a server change any member's profile and answers the server shape", async () => {
    const { project, plain, outsider, team } = await teamWithMembers();
    const updated = await as(project, "server", `/team-member-profiles/${team.id}/${plain.id}`, { method: "PATCH", body: { display_name: "Renamed by server" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ display_name: "Renamed by server", user: { id: plain.id, display_name: "Plain" } });
    expectKnownError(await as(project, "server", `/team-member-profiles/${team.id}/${outsider.id}`, { method: "PATCH", body: { display_name: "x" } }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });
});
