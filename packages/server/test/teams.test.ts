import { describe, expect, it } from "vitest";
import { createTestProject } from "./support/test-server.js";
import { dataUrl, png } from "./support/tiny-images.js";
import { server, as, configure, createUser, email, expectKnownError, expectSchemaError, useServerForFile } from "./support/users-fixture.js";
import { CLIENT_TEAM_KEYS, SERVER_TEAM_KEYS, SYSTEM_TEAM_PERMISSIONS, addMember, configureTeams, permissionsOf, serverTeam, signedInUser } from "./support/teams-fixture.js";

useServerForFile();

const sorted = (values: string[]) => [...values].sort();

describe("POST /teams", () => {
  it("lets a server create a team without members, in the server shape", async () => {
    const project = await createTestProject(server);
    const created = await as(project, "server", "/teams", {
      method: "POST",
      body: { display_name: "Acme", profile_image_url: "https://example.com/a.png", client_metadata: { a: 1 }, client_read_only_metadata: { b: 2 }, server_metadata: { c: 3 } },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(SERVER_TEAM_KEYS);
    expect(created.body).toMatchObject({ display_name: "Acme", profile_image_url: "https://example.com/a.png", client_metadata: { a: 1 }, client_read_only_metadata: { b: 2 }, server_metadata: { c: 3 } });
    expect(Math.abs(created.body.created_at_millis - Date.now())).toBeLessThan(60_000);
    const members = await as(project, "server", `/team-member-profiles?team_id=${created.body.id}`);
    expect(members.body.items).toEqual([]);
  });

  it("makes a server-named creator a member with the creator permissions, leaving their selected team as it was", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { creator: ["$update_team", "$read_members"], member: ["$read_members"] });
    const user = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id });
    expect(await permissionsOf(server.db, team.id, user.id)).toEqual(["$read_members", "$update_team"]);
    // As in the protocol, creating a team selects nothing (issue 13 §2; wire-teams.test.ts ("the selected team")).
    const read = await as(project, "server", `/users/${user.id}`);
    expect(read.body).toMatchObject({ selected_team_id: null, selected_team: null });
  });

  it("refuses an unknown creator with USER_NOT_FOUND and leaves no team behind", async () => {
    const project = await createTestProject(server);
    expectKnownError(await as(project, "server", "/teams", { method: "POST", body: { display_name: "Ghost", creator_user_id: crypto.randomUUID() } }), "USER_NOT_FOUND", 404);
    const other = await createTestProject(server);
    const foreignUser = await createUser(other);
    expectKnownError(await as(project, "server", "/teams", { method: "POST", body: { display_name: "Ghost", creator_user_id: foreignUser.id } }), "USER_NOT_FOUND", 404);
    expect((await as(project, "server", "/teams")).body.items).toEqual([]);
  });

  it("resolves creator_user_id me to the signed-in user, and refuses it without one", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const team = await as(project, "server", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "Mine", creator_user_id: "me" } });
    expect(team.status).toBe(201);
    expect((await as(project, "server", `/teams?user_id=${user.id}`)).body.items.map((t: any) => t.id)).toEqual([team.body.id]);
    expectKnownError(await as(project, "server", "/teams", { method: "POST", body: { display_name: "Nobody", creator_user_id: "me" } }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lets a signed-in client create a team when the project allows it: it joins and gets creator permissions", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    const user = await signedInUser(project);
    const created = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "Client team", creator_user_id: "me", client_metadata: { x: 1 } } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(CLIENT_TEAM_KEYS);
    expect(created.body).toMatchObject({ display_name: "Client team", client_metadata: { x: 1 }, client_read_only_metadata: null, profile_image_url: null });
    expect(await permissionsOf(server.db, created.body.id, user.id)).toEqual(sorted(SYSTEM_TEAM_PERMISSIONS));
    // Selecting it is the client's own PATCH /users/me.
    const me = await as(project, "client", "/users/me", { tokens: user.tokens });
    expect(me.body.selected_team_id).toBeNull();

    // Without creator_user_id the client still joins its own team.
    const implicit = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "Implicit" } });
    expect(implicit.status).toBe(201);
    expect(await permissionsOf(server.db, implicit.body.id, user.id)).toEqual(sorted(SYSTEM_TEAM_PERMISSIONS));
  });

  it("refuses client creation when disabled, signed out, for another user, or with server fields", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const other = await createUser(project);
    const disabled = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "No" } });
    expect(disabled.status).toBe(403);
    expect(disabled.text).toBe("Client team creation is disabled for this project");

    await configureTeams(project);
    expectKnownError(await as(project, "client", "/teams", { method: "POST", body: { display_name: "No" } }), "USER_AUTHENTICATION_REQUIRED", 401);
    expectKnownError(await as(project, "client", "/teams", { method: "POST", body: { display_name: "No", creator_user_id: "me" } }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const asOther = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "No", creator_user_id: other.id } });
    expect(asOther.status).toBe(403);
    expect(asOther.text).toContain("You cannot create a team as a user that is not yourself");
    expectSchemaError(await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "No", server_metadata: {} } }), "body contains unknown properties: server_metadata");
    expectSchemaError(await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: {} }), "body.display_name must be defined");
    expectSchemaError(await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "x", profile_image_url: "not a url" } }), "body.profile_image_url");
    const both = await as(project, "client", "/teams?add_current_user=true", { method: "POST", tokens: user.tokens, body: { display_name: "No", creator_user_id: "me" } });
    expect(both.status).toBe(400);
    expect((await as(project, "server", "/teams")).body.items).toEqual([]);
  });

  it("accepts the deprecated add_current_user=true for the signed-in user, and refuses it signed out", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const created = await as(project, "server", "/teams?add_current_user=true", { method: "POST", tokens: user.tokens, body: { display_name: "Legacy" } });
    expect(created.status).toBe(201);
    expect((await as(project, "server", `/teams?user_id=${user.id}`)).body.items.map((t: any) => t.id)).toEqual([created.body.id]);
    const signedOut = await as(project, "server", "/teams?add_current_user=true", { method: "POST", body: { display_name: "Legacy" } });
    expect(signedOut.status).toBe(401);
  });
});

describe("GET /teams", () => {
  it("lists a client's own teams only, with user_id=me or its own id", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const stranger = await createUser(project);
    const first = await serverTeam(project, { display_name: "First", creator_user_id: user.id });
    const second = await serverTeam(project, { display_name: "Second" });
    await addMember(project, second.id, user.id);
    await serverTeam(project, { display_name: "Not mine", creator_user_id: stranger.id });

    for (const userId of ["me", user.id]) {
      const listed = await as(project, "client", `/teams?user_id=${userId}`, { tokens: user.tokens });
      expect(listed.status).toBe(200);
      expect(listed.body.is_paginated).toBe(false);
      expect(listed.body.items.map((t: any) => t.display_name)).toEqual(["First", "Second"]);
      expect(Object.keys(listed.body.items[0]).sort()).toEqual(CLIENT_TEAM_KEYS);
    }
    expect(first.id).toBeDefined();
  });

  it("refuses a client listing all teams or someone else's", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const stranger = await createUser(project);
    await serverTeam(project, { creator_user_id: stranger.id });
    for (const path of ["/teams", `/teams?user_id=${stranger.id}`]) {
      const refused = await as(project, "client", path, { tokens: user.tokens });
      expect(refused.status).toBe(403);
      expect(refused.text).toBe('Client can only list teams for their own user. user_id must be either "me" or the ID of the current user');
    }
    expectKnownError(await as(project, "client", "/teams?user_id=me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectSchemaError(await as(project, "server", "/teams?user_id=nope"), "query.user_id must be a valid UUID");
  });

  it("lists every team of the project for a server, oldest first, optionally by member", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    await serverTeam(other, { display_name: "Elsewhere" });
    const user = await createUser(project);
    await serverTeam(project, { display_name: "A" });
    await serverTeam(project, { display_name: "B", creator_user_id: user.id });
    await serverTeam(project, { display_name: "C" });
    const all = await as(project, "admin", "/teams");
    expect(all.body.items.map((t: any) => t.display_name)).toEqual(["A", "B", "C"]);
    expect(Object.keys(all.body.items[0]).sort()).toEqual(SERVER_TEAM_KEYS);
    expect((await as(project, "server", `/teams?user_id=${user.id}`)).body.items.map((t: any) => t.display_name)).toEqual(["B"]);
  });
});

describe("GET /teams/{team_id}", () => {
  it("shows a member its team in the client shape and a server any team of the project", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id, server_metadata: { s: 1 } });
    const client = await as(project, "client", `/teams/${team.id}`, { tokens: user.tokens });
    expect(client.status).toBe(200);
    expect(Object.keys(client.body).sort()).toEqual(CLIENT_TEAM_KEYS);
    const upper = await as(project, "server", `/teams/${team.id.toUpperCase()}`);
    expect(upper.body).toMatchObject({ id: team.id, server_metadata: { s: 1 } });
  });

  it("answers a non-member TEAM_MEMBERSHIP_NOT_FOUND whether or not the team exists, so ids cannot be probed", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const team = await serverTeam(project);
    const existing = await as(project, "client", `/teams/${team.id}`, { tokens: user.tokens });
    expectKnownError(existing, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(existing.body.details).toEqual({ team_id: team.id, user_id: user.id });
    const missing = crypto.randomUUID();
    expectKnownError(await as(project, "client", `/teams/${missing}`, { tokens: user.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await as(project, "client", `/teams/${team.id}`), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("answers a server TEAM_NOT_FOUND for unknown ids and other projects' teams, and SCHEMA_ERROR for non-UUIDs", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const foreign = await serverTeam(other);
    const missing = await as(project, "server", `/teams/${foreign.id}`);
    expectKnownError(missing, "TEAM_NOT_FOUND", 404);
    expect(missing.body.error).toBe(`Team ${foreign.id} not found.`);
    expectSchemaError(await as(project, "server", "/teams/not-a-uuid"), "params.team_id must be a valid UUID");
  });
});

describe("PATCH /teams/{team_id}", () => {
  it("lets a member holding $update_team change the client fields", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    const user = await signedInUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id, client_read_only_metadata: { ro: true } });
    const updated = await as(project, "client", `/teams/${team.id}`, {
      method: "PATCH",
      tokens: user.tokens,
      // A client uploads an image as a data URL; it reads back as the URL the server serves it at (issue 13).
      body: { display_name: "Renamed", profile_image_url: dataUrl("png", png()), client_metadata: { k: "v" } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: team.id,
      display_name: "Renamed",
      profile_image_url: expect.stringMatching(/\/api\/v1\/profile-images\/[0-9a-f-]{36}$/),
      client_metadata: { k: "v" },
      client_read_only_metadata: { ro: true },
    });
    const cleared = await as(project, "client", `/teams/${team.id}`, { method: "PATCH", tokens: user.tokens, body: { profile_image_url: null } });
    expect(cleared.body).toMatchObject({ display_name: "Renamed", profile_image_url: null });
    expectSchemaError(await as(project, "client", `/teams/${team.id}`, { method: "PATCH", tokens: user.tokens, body: { client_read_only_metadata: {} } }), "body contains unknown properties: client_read_only_metadata");
  });

  it("refuses members without $update_team and non-members, changing nothing", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$read_members"] });
    const member = await signedInUser(project);
    const outsider = await signedInUser(project);
    const team = await serverTeam(project, { display_name: "Original" });
    await addMember(project, team.id, member.id);

    const denied = await as(project, "client", `/teams/${team.id}`, { method: "PATCH", tokens: member.tokens, body: { display_name: "Hijacked" } });
    expectKnownError(denied, "TEAM_PERMISSION_REQUIRED", 401);
    expect(denied.body.details).toEqual({ team_id: team.id, user_id: member.id, permission_id: "$update_team" });
    expectKnownError(await as(project, "client", `/teams/${team.id}`, { method: "PATCH", tokens: outsider.tokens, body: { display_name: "Hijacked" } }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect((await as(project, "server", `/teams/${team.id}`)).body.display_name).toBe("Original");
  });

  it("grants $update_team through a contained permission", async () => {
    const project = await createTestProject(server);
    await configure(project, {
      "rbac.permissions.editor": { scope: "team", containedPermissionIds: { $update_team: true } },
      "rbac.defaultPermissions.teamMember": { editor: true },
    });
    const member = await signedInUser(project);
    const team = await serverTeam(project);
    await addMember(project, team.id, member.id);
    const updated = await as(project, "client", `/teams/${team.id}`, { method: "PATCH", tokens: member.tokens, body: { display_name: "Edited" } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.display_name).toBe("Edited");
  });

  it("lets a server change every field, and answers TEAM_NOT_FOUND for an unknown team", async () => {
    const project = await createTestProject(server);
    const team = await serverTeam(project);
    const updated = await as(project, "server", `/teams/${team.id}`, { method: "PATCH", body: { client_read_only_metadata: { plan: "pro" }, server_metadata: { internal: 1 } } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ display_name: "Team", client_read_only_metadata: { plan: "pro" }, server_metadata: { internal: 1 } });
    expect((await as(project, "server", `/teams/${team.id}`, { method: "PATCH", body: {} })).body).toEqual(updated.body);
    expectKnownError(await as(project, "server", `/teams/${crypto.randomUUID()}`, { method: "PATCH", body: { display_name: "x" } }), "TEAM_NOT_FOUND", 404);
    expectSchemaError(await as(project, "server", `/teams/${team.id}`, { method: "PATCH", body: { display_name: "x".repeat(257) } }), "body.display_name must be at most 256 characters");
  });
});

describe("the selected team in the user record", () => {
  it("shows a renamed team's new name at once to its signed-in member", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    const user = await signedInUser(project);
    const created = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "Before" } });
    await as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: created.body.id } });
    expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.selected_team.display_name).toBe("Before");
    await as(project, "client", `/teams/${created.body.id}`, { method: "PATCH", tokens: user.tokens, body: { display_name: "After" } });
    expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.selected_team.display_name).toBe("After");
  });
});

describe("DELETE /teams/{team_id}", () => {
  it("refuses members without $delete_team and non-members, and keeps the team", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$update_team"] });
    const member = await signedInUser(project);
    const outsider = await signedInUser(project);
    const team = await serverTeam(project);
    await addMember(project, team.id, member.id);
    const denied = await as(project, "client", `/teams/${team.id}`, { method: "DELETE", tokens: member.tokens });
    expectKnownError(denied, "TEAM_PERMISSION_REQUIRED", 401);
    expect(denied.body.details.permission_id).toBe("$delete_team");
    expectKnownError(await as(project, "client", `/teams/${team.id}`, { method: "DELETE", tokens: outsider.tokens }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect((await as(project, "server", `/teams/${team.id}`)).status).toBe(200);
  });

  it("deletes with $delete_team and removes every membership, profile, permission, selection and pending invitation with it", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { member: ["$read_members"] });
    await configure(project, { "domains.allowLocalhost": true });
    const owner = await signedInUser(project);
    const member = await createUser(project);
    const created = await as(project, "client", "/teams", { method: "POST", tokens: owner.tokens, body: { display_name: "Doomed" } });
    const teamId = created.body.id;
    await addMember(project, teamId, member.id);
    await as(project, "server", `/team-member-profiles/${teamId}/${member.id}`, { method: "PATCH", body: { display_name: "In team" } });
    for (const userId of [owner.id, member.id]) await as(project, "server", `/users/${userId}`, { method: "PATCH", body: { selected_team_id: teamId } });
    const invited = await as(project, "server", "/team-invitations/send-code", { method: "POST", body: { team_id: teamId, email: email(), callback_url: "http://localhost:3000/join" } });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);

    const deleted = await as(project, "client", `/teams/${teamId}`, { method: "DELETE", tokens: owner.tokens });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });

    expectKnownError(await as(project, "server", `/teams/${teamId}`), "TEAM_NOT_FOUND", 404);
    const db = server.db;
    expect(await db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute()).toEqual([]);
    expect(await db.selectFrom("team_member_permissions").select("user_id").where("team_id", "=", teamId).execute()).toEqual([]);
    expect(await db.selectFrom("verification_codes").select("id").where("purpose", "=", "team_invitation").where("project_id", "=", project.projectId).execute()).toEqual([]);
    for (const userId of [owner.id, member.id]) {
      const user = await as(project, "server", `/users/${userId}`);
      expect(user.body).toMatchObject({ selected_team_id: null, selected_team: null });
    }
    // The signed-in owner's own record (served from the user cache) says so too.
    expect((await as(project, "client", "/users/me", { tokens: owner.tokens })).body).toMatchObject({ selected_team_id: null, selected_team: null });
  });

  it("deletes once when several deletes race, the others answering TEAM_NOT_FOUND", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id });
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => as(project, "server", `/teams/${team.id}`, { method: "DELETE" })),
      // A member added while the team goes is either added first (and removed with it) or refused.
      as(project, "server", `/team-memberships/${team.id}/${(await createUser(project)).id}`, { method: "POST", body: {} }),
    ]);
    const deletes = results.slice(0, 6);
    expect(deletes.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of deletes.filter((r) => r.status !== 200)) expectKnownError(r, "TEAM_NOT_FOUND", 404);
    if (results[6]!.status !== 201) expectKnownError(results[6]!, "TEAM_NOT_FOUND", 404);
    expect(await server.db.selectFrom("team_members").select("user_id").where("team_id", "=", team.id).execute()).toEqual([]);
  });

  it("lets a server delete any team of its project, and answers TEAM_NOT_FOUND otherwise", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const team = await serverTeam(project);
    const foreign = await serverTeam(other);
    expectKnownError(await as(project, "server", `/teams/${foreign.id}`, { method: "DELETE" }), "TEAM_NOT_FOUND", 404);
    expect((await as(other, "server", `/teams/${foreign.id}`)).status).toBe(200);
    expect((await as(project, "admin", `/teams/${team.id}`, { method: "DELETE" })).status).toBe(200);
    expectKnownError(await as(project, "server", `/teams/${team.id}`, { method: "DELETE" }), "TEAM_NOT_FOUND", 404);
  });
});

describe("personal teams (create_team_on_sign_up)", () => {
  it("gives the new user's personal team the creator default permissions", async () => {
    const project = await createTestProject(server);
    await configureTeams(project, { creator: ["$update_team", "$delete_team"] });
    await configure(project, { "teams.createPersonalTeamOnSignUp": true });
    const created = await createUser(project, { display_name: "Ada" });
    // The creation answer shows no selected team (issue 13 §2); every later read shows the personal team.
    const user = (await as(project, "server", `/users/${created.id}`)).body;
    expect(user.selected_team).toMatchObject({ display_name: "Ada's Team" });
    expect(await permissionsOf(server.db, user.selected_team_id, user.id)).toEqual(["$delete_team", "$update_team"]);
  });
});
