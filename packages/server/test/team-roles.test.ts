import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { codeIn, configure, email, emailProject, expectKnownError, expectNoMailTo, post, server, signUpWithPassword, smtp, type Tokens, useServerAndSmtpForFile } from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";
import { grantDefaultTeamPermissions } from "../src/services/team-permission-checks.js";

// Issue 16 "Teams": each member's roles (GET /team-member-roles) and invitations carrying roles, two Latchkey
// extensions. New projects define the protocol's roles: team_admin (creators) and team_member (members).

useServerAndSmtpForFile();

const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

async function team(project: TestProject) {
  const owner = await signUpWithPassword(project, email(), "correct horse battery");
  const row = await server.db
    .insertInto("teams")
    .values({ project_id: project.projectId, display_name: "Roles Team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  await join(project, row.id, owner.user_id, "creator");
  return { owner, teamId: row.id };
}

async function join(project: TestProject, teamId: string, userId: string, role: "creator" | "member" | "none") {
  await server.db.insertInto("team_members").values({ project_id: project.projectId, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null }).execute();
  if (role === "none") return;
  const row = await server.db.selectFrom("projects").selectAll().where("id", "=", project.projectId).executeTakeFirstOrThrow();
  await grantDefaultTeamPermissions(server.db, row, teamId, userId, role);
}

async function memberOf(project: TestProject, teamId: string, role: "member" | "none" = "member") {
  const tokens = await signUpWithPassword(project, email(), "correct horse battery");
  await join(project, teamId, tokens.user_id, role);
  return tokens;
}

function roles(project: TestProject, teamId: string, as: { tokens?: Tokens; access?: "client" | "server" } = {}): Promise<ApiResponse> {
  const headers = { ...project.headers(as.access ?? "client"), ...(as.tokens ? { "x-stack-access-token": as.tokens.access_token } : {}) };
  return api(server.url, `/team-member-roles?team_id=${teamId}`, { headers });
}

function invite(project: TestProject, teamId: string, to: string, permissionIds: string[] | undefined, as: { tokens?: Tokens; access?: "client" | "server" } = {}) {
  const body = { team_id: teamId, email: to, callback_url: INVITATION_PAGE, ...(permissionIds ? { permission_ids: permissionIds } : {}) };
  return post(project, "/team-invitations/send-code", body, as);
}

const directGrants = async (teamId: string, userId: string) =>
  (await server.db.selectFrom("team_member_permissions").select("permission_id").where("team_id", "=", teamId).where("user_id", "=", userId).execute())
    .map((row) => row.permission_id)
    .sort();

describe("GET /team-member-roles", () => {
  it("lists each member's roles (not the $ system permissions) and who administers the team, in order of joining", async () => {
    const project = await emailProject();
    const { owner, teamId } = await team(project);
    const member = await memberOf(project, teamId);
    const plain = await memberOf(project, teamId, "none");
    // A direct system grant is not a role, and does not make anyone an admin.
    await server.db.insertInto("team_member_permissions").values({ project_id: project.projectId, team_id: teamId, user_id: plain.user_id, permission_id: "$delete_team" }).execute();

    const expected = {
      items: [
        { user_id: owner.user_id, permission_ids: ["team_admin"], is_admin: true },
        { user_id: member.user_id, permission_ids: ["team_member"], is_admin: false },
        { user_id: plain.user_id, permission_ids: [], is_admin: false },
      ],
      is_paginated: false,
    };
    const asMember = await roles(project, teamId, { tokens: member });
    expect(asMember.status, JSON.stringify(asMember.body)).toBe(200);
    expect(asMember.body).toEqual(expected);
    expect((await roles(project, teamId, { access: "server" })).body).toEqual(expected);
  });

  it("answers a client only for a team it is in while holding $read_members, with the member profiles list's errors", async () => {
    const project = await emailProject();
    const { teamId } = await team(project);
    const withoutRights = await memberOf(project, teamId, "none");
    const outsider = await signUpWithPassword(project, email(), "correct horse battery");

    expectKnownError(await roles(project, teamId), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const notMember = await roles(project, teamId, { tokens: outsider });
    expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(notMember.body.details).toEqual({ team_id: teamId, user_id: outsider.user_id });
    // A client cannot tell a team that does not exist from one it is not in.
    expectKnownError(await roles(project, crypto.randomUUID(), { tokens: outsider }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const noRight = await roles(project, teamId, { tokens: withoutRights });
    expectKnownError(noRight, "TEAM_PERMISSION_REQUIRED", 401);
    expect(noRight.body.details).toEqual({ team_id: teamId, user_id: withoutRights.user_id, permission_id: "$read_members" });

    expectKnownError(await roles(project, crypto.randomUUID(), { access: "server" }), "TEAM_NOT_FOUND", 404);
    expectKnownError(await roles(project, "not-a-team", { access: "server" }), "SCHEMA_ERROR", 400);
    expectKnownError(await api(server.url, "/team-member-roles", { headers: project.headers("server") }), "SCHEMA_ERROR", 400);
  });

  it("has no admins in a project whose team creators get no permissions", async () => {
    const project = await emailProject();
    await configure(project, { "rbac.defaultPermissions.teamCreator": {} });
    const { owner, teamId } = await team(project);
    await server.db.insertInto("team_member_permissions").values({ project_id: project.projectId, team_id: teamId, user_id: owner.user_id, permission_id: "team_admin" }).execute();
    expect((await roles(project, teamId, { access: "server" })).body.items).toEqual([{ user_id: owner.user_id, permission_ids: ["team_admin"], is_admin: false }]);
  });
});

describe("inviting with a role", () => {
  it("grants the role on acceptance, on top of the member defaults; the invitation list keeps the protocol's shape", async () => {
    const project = await emailProject();
    const { owner, teamId } = await team(project);
    const address = email();
    const sent = await invite(project, teamId, address, ["team_admin"], { tokens: owner });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const code = codeIn(await smtp.nextMessage(address));

    const listed = await api(server.url, `/team-invitations?team_id=${teamId}`, { headers: project.headers("server") });
    expect(listed.body.items).toEqual([{ id: sent.body.id, team_id: teamId, recipient_email: address, expires_at_millis: expect.any(Number) }]);

    const invitee = await signUpWithPassword(project, address, "correct horse battery");
    expect((await post(project, "/team-invitations/accept", { code }, { tokens: invitee })).status).toBe(200);
    expect(await directGrants(teamId, invitee.user_id)).toEqual(["team_admin", "team_member"]);
    const listedRoles = (await roles(project, teamId, { tokens: owner })).body.items;
    expect(listedRoles[1]).toEqual({ user_id: invitee.user_id, permission_ids: ["team_admin", "team_member"], is_admin: true });
  });

  it("grants the role when a 2.8.108 user accepts the invitation by id", async () => {
    const project = await emailProject();
    const { teamId } = await team(project);
    await configure(project, { "rbac.permissions.billing": { scope: "team", description: "Pays the bills", containedPermissionIds: {} } });
    const address = email();
    const sent = await invite(project, teamId, address, ["billing"], { access: "server" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const code = codeIn(await smtp.nextMessage(address));
    // Accepting by id needs the address verified (here directly in the database).
    const invitee = await signUpWithPassword(project, address, "correct horse battery");
    await server.db.updateTable("contact_channels").set({ is_verified: true }).where("user_id", "=", invitee.user_id).execute();
    // The 2.8.108 SDK's headers: the same keys under x-hexclave-* names.
    const headers = Object.fromEntries(Object.entries(project.headers("server")).map(([name, value]) => [name.replace("x-stack-", "x-hexclave-"), value]));
    const accepted = await api(server.url, `/team-invitations/${sent.body.id}/accept?user_id=${invitee.user_id}`, { method: "POST", headers, body: {} });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await directGrants(teamId, invitee.user_id)).toEqual(["billing", "team_member"]);
    // The code was used up with the invitation.
    expect((await post(project, "/team-invitations/accept", { code }, { tokens: invitee })).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("refuses a client granting a role it does not hold itself; a server may grant any role; nothing is mailed when refused", async () => {
    const project = await emailProject();
    const { owner, teamId } = await team(project);
    const member = await memberOf(project, teamId);
    const address = email();

    const escalation = await invite(project, teamId, address, ["team_member", "team_admin"], { tokens: member });
    expectKnownError(escalation, "TEAM_PERMISSION_REQUIRED", 401);
    expect(escalation.body.details).toEqual({ team_id: teamId, user_id: member.user_id, permission_id: "team_admin" });
    await expectNoMailTo(address);

    // Holding a role by containment is enough: team_admin contains nothing named team_member, so the owner
    // needs a role that does; a server needs nothing.
    await configure(project, { "rbac.permissions.team_admin.containedPermissionIds.team_member": true });
    expect((await invite(project, teamId, email(), ["team_member"], { tokens: owner })).status).toBe(200);
    expect((await invite(project, teamId, email(), ["team_member"], { tokens: member })).status).toBe(200);
    expect((await invite(project, teamId, email(), ["team_admin"], { access: "server" })).status).toBe(200);
  });

  it("answers the protocol's errors for a role that is not one of the project's team permissions", async () => {
    const project = await emailProject();
    const { owner, teamId } = await team(project);
    await configure(project, { "rbac.permissions.read_reports": { scope: "project", containedPermissionIds: {} } });
    const address = email();
    const unknown = await invite(project, teamId, address, ["no_such_role"], { tokens: owner });
    expectKnownError(unknown, "PERMISSION_NOT_FOUND", 404);
    expect(unknown.body.details).toEqual({ permission_id: "no_such_role" });
    expectKnownError(await invite(project, teamId, address, ["read_reports"], { access: "server" }), "WRONG_PERMISSION_SCOPE", 404);
    expectKnownError(await invite(project, teamId, address, ["$delete_team"], { access: "server" }), "SCHEMA_ERROR", 400);
    expectKnownError(await invite(project, teamId, address, [""], { access: "server" }), "SCHEMA_ERROR", 400);
    await expectNoMailTo(address);
  });

  it("joins and grants in one transaction: when granting the role fails, the person is not a member and the code still works", async () => {
    const project = await emailProject();
    const { teamId } = await team(project);
    const address = email();
    await invite(project, teamId, address, ["team_admin"], { access: "server" });
    const code = codeIn(await smtp.nextMessage(address));
    const invitee = await signUpWithPassword(project, address, "correct horse battery");

    // A real failure inside the grant: the database refuses this team's team_admin grants for now.
    const fn = `refuse_grant_${teamId.replaceAll("-", "")}`;
    await sql
      .raw(`CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN IF NEW.team_id = '${teamId}' AND NEW.permission_id = 'team_admin' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`)
      .execute(server.db);
    await sql.raw(`CREATE TRIGGER ${fn} BEFORE INSERT ON team_member_permissions FOR EACH ROW EXECUTE FUNCTION ${fn}()`).execute(server.db);
    try {
      // Plain fetch: the api helper (rightly) fails any 500, and this one is the injected fault.
      const failed = await fetch(`${server.url}/api/v1/team-invitations/accept`, {
        method: "POST",
        headers: { ...project.headers("client"), "x-stack-access-token": invitee.access_token, "content-type": "application/json" },
        body: JSON.stringify({ code }),
      });
      expect(failed.status).toBe(500);
      const membership = await server.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).where("user_id", "=", invitee.user_id).executeTakeFirst();
      expect(membership).toBeUndefined();
      expect(await directGrants(teamId, invitee.user_id)).toEqual([]);
    } finally {
      await sql.raw(`DROP TRIGGER ${fn} ON team_member_permissions; DROP FUNCTION ${fn}()`).execute(server.db);
    }
    expect((await post(project, "/team-invitations/accept/check-code", { code }, { tokens: invitee })).body).toEqual({ is_code_valid: true });
    expect((await post(project, "/team-invitations/accept", { code }, { tokens: invitee })).status).toBe(200);
    expect(await directGrants(teamId, invitee.user_id)).toEqual(["team_admin", "team_member"]);
  });
});
