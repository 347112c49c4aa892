import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import {
  codeIn,
  email,
  emailProject,
  expectKnownError,
  expectNoMailTo,
  post,
  server,
  signUpWithPassword,
  smtp,
  tally,
  type Tokens,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";
import { hasTeamPermission, grantDefaultTeamPermissions } from "../src/services/team-permission-checks.js";

useServerAndSmtpForFile();

const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

// New projects come with the protocol's team roles: creators administer, members read and invite.
const teamsProject = () => emailProject();

/** A project with a team whose creator (signed in) holds the creator default permissions. */
async function teamWithOwner(project: TestProject, name = "Rocket Team") {
  const owner = await signUpWithPassword(project, email(), "correct horse battery");
  const team = await server.db
    .insertInto("teams")
    .values({ project_id: project.projectId, display_name: name, profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  await join(project, team.id, owner.user_id, "creator");
  return { owner, teamId: team.id };
}

async function join(project: TestProject, teamId: string, userId: string, role: "creator" | "member" | "none") {
  await server.db.insertInto("team_members").values({ project_id: project.projectId, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null }).execute();
  if (role === "none") return;
  const row = await server.db.selectFrom("projects").selectAll().where("id", "=", project.projectId).executeTakeFirstOrThrow();
  await grantDefaultTeamPermissions(server.db, row, teamId, userId, role);
}

const members = async (teamId: string) =>
  (await server.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute()).map((m) => m.user_id).sort();

async function invite(project: TestProject, teamId: string, to: string, as: { tokens?: Tokens; access?: "client" | "server" } = {}): Promise<ApiResponse> {
  return post(project, "/team-invitations/send-code", { team_id: teamId, email: to, callback_url: INVITATION_PAGE }, as);
}

const accept = (project: TestProject, code: string, tokens?: Tokens) => post(project, "/team-invitations/accept", { code }, { tokens });

describe("inviting someone to a team by email", () => {
  it("mails a link; the invited person checks it, sees the team, accepts, and is a member with the member defaults", async () => {
    const project = await teamsProject();
    const { owner, teamId } = await teamWithOwner(project);
    const address = email();
    const sent = await invite(project, teamId, address, { tokens: owner });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ success: true, id: expect.any(String) });

    const message = await smtp.nextMessage(address);
    expect(message.subject).toBe("You have been invited to join Rocket Team");
    const link = new URL(message.text.match(/https?:\/\/\S+/)![0]);
    expect(`${link.origin}${link.pathname}`).toBe(INVITATION_PAGE);
    const code = codeIn(message);

    const invitee = await signUpWithPassword(project, address, "correct horse battery");
    expect((await post(project, "/team-invitations/accept/check-code", { code }, { tokens: invitee })).body).toEqual({ is_code_valid: true });
    expect((await post(project, "/team-invitations/accept/details", { code }, { tokens: invitee })).body).toEqual({ team_id: teamId, team_display_name: "Rocket Team" });

    const accepted = await accept(project, code, invitee);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    expect(await members(teamId)).toEqual([owner.user_id, invitee.user_id].sort());
    expect(await hasTeamPermission(server.db, project.projectId, teamId, invitee.user_id, "$read_members")).toBe(true);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, invitee.user_id, "$delete_team")).toBe(false);

    expectKnownError(await accept(project, code, invitee), "VERIFICATION_CODE_ALREADY_USED", 409);
    const pending = await api(server.url, `/team-invitations?team_id=${teamId}`, { headers: { ...project.headers("client"), "x-stack-access-token": owner.access_token } });
    expect(pending.body).toEqual({ items: [], is_paginated: false });
  });

  it("names the member who sent it in the mail; an invitation a server sends names nobody", async () => {
    const project = await teamsProject();
    const { owner, teamId } = await teamWithOwner(project);
    const named = await api(server.url, "/users/me", {
      method: "PATCH",
      headers: { ...project.headers("client"), "x-stack-access-token": owner.access_token },
      body: { display_name: "Ada Lovelace" },
    });
    expect(named.status).toBe(200);

    const invitedByAda = email();
    expect((await invite(project, teamId, invitedByAda, { tokens: owner })).status).toBe(200);
    const fromAda = await smtp.nextMessage(invitedByAda);
    expect(fromAda.subject).toBe("You have been invited to join Rocket Team");
    expect(fromAda.html).toContain("Ada Lovelace invited you to Rocket Team");

    const invitedByServer = email();
    expect((await invite(project, teamId, invitedByServer, { access: "server" })).status).toBe(200);
    const fromServer = await smtp.nextMessage(invitedByServer);
    expect(fromServer.html).toContain("You are invited to Rocket Team");
    expect(fromServer.text).not.toContain("Ada Lovelace");
  });

  it("needs a signed-in member holding $invite_members, a known team and a trusted callback; nothing is mailed otherwise", async () => {
    const project = await teamsProject();
    const { teamId } = await teamWithOwner(project);
    const outsider = await signUpWithPassword(project, email(), "correct horse battery");
    const memberWithoutRights = await signUpWithPassword(project, email(), "correct horse battery");
    await join(project, teamId, memberWithoutRights.user_id, "none");
    const address = email();

    expectKnownError(await invite(project, teamId, address), "USER_AUTHENTICATION_REQUIRED", 401);
    const notMember = await invite(project, teamId, address, { tokens: outsider });
    expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(notMember.body.details).toEqual({ team_id: teamId, user_id: outsider.user_id });
    const noRight = await invite(project, teamId, address, { tokens: memberWithoutRights });
    expectKnownError(noRight, "TEAM_PERMISSION_REQUIRED", 401);
    expect(noRight.body.details).toEqual({ team_id: teamId, user_id: memberWithoutRights.user_id, permission_id: "$invite_members" });
    const unknownTeam = crypto.randomUUID();
    expectKnownError(await invite(project, unknownTeam, address, { access: "server" }), "TEAM_NOT_FOUND", 404);
    expectKnownError(
      await post(project, "/team-invitations/send-code", { team_id: teamId, email: address, callback_url: "https://evil.example/join" }, { access: "server" }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    expectKnownError(await post(project, "/team-invitations/send-code", { team_id: "not-a-uuid", email: address, callback_url: INVITATION_PAGE }, { access: "server" }), "SCHEMA_ERROR", 400);
    await expectNoMailTo(address);
  });

  it("lets a server invite without a user, list the pending invitations and revoke one, whose link then fails", async () => {
    const project = await teamsProject();
    const { teamId } = await teamWithOwner(project);
    const [first, second] = [email(), email()];
    const sentFirst = await invite(project, teamId, first, { access: "server" });
    await invite(project, teamId, second, { access: "server" });
    const firstCode = codeIn(await smtp.nextMessage(first));

    const listed = await api(server.url, `/team-invitations?team_id=${teamId}`, { headers: project.headers("server") });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { recipient_email: string }) => i.recipient_email)).toEqual([first, second]);
    const [item] = listed.body.items;
    expect(item).toEqual({ id: sentFirst.body.id, team_id: teamId, recipient_email: first, expires_at_millis: expect.any(Number) });
    expect(item.expires_at_millis).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);

    const revoked = await api(server.url, `/team-invitations/${sentFirst.body.id}?team_id=${teamId}`, { method: "DELETE", headers: project.headers("server") });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    const after = await api(server.url, `/team-invitations?team_id=${teamId}`, { headers: project.headers("server") });
    expect(after.body.items.map((i: { recipient_email: string }) => i.recipient_email)).toEqual([second]);
    const invitee = await signUpWithPassword(project, first, "correct horse battery");
    expectKnownError(await accept(project, firstCode, invitee), "VERIFICATION_CODE_NOT_FOUND", 404);
    const again = await api(server.url, `/team-invitations/${sentFirst.body.id}?team_id=${teamId}`, { method: "DELETE", headers: project.headers("server") });
    expect(again.status).toBe(404);
  });

  it("keeps one team's invitations from a member of another team", async () => {
    const project = await teamsProject();
    const { teamId } = await teamWithOwner(project, "Theirs");
    const { owner: otherOwner } = await teamWithOwner(project, "Mine");
    const sent = await invite(project, teamId, email(), { access: "server" });
    const headers = { ...project.headers("client"), "x-stack-access-token": otherOwner.access_token };
    expectKnownError(await api(server.url, `/team-invitations?team_id=${teamId}`, { headers }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const revoke = await api(server.url, `/team-invitations/${sent.body.id}?team_id=${teamId}`, { method: "DELETE", headers });
    expectKnownError(revoke, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const still = await api(server.url, `/team-invitations?team_id=${teamId}`, { headers: project.headers("server") });
    expect(still.body.items).toHaveLength(1);
  });
});

describe("accepting an invitation", () => {
  it("needs a signed-in user, and the code stays usable until one accepts", async () => {
    const project = await teamsProject();
    const { teamId } = await teamWithOwner(project);
    const address = email();
    await invite(project, teamId, address, { access: "server" });
    const code = codeIn(await smtp.nextMessage(address));
    expectKnownError(await accept(project, code), "USER_AUTHENTICATION_REQUIRED", 401);
    expectKnownError(await post(project, "/team-invitations/accept/details", { code }), "USER_AUTHENTICATION_REQUIRED", 401);
    const invitee = await signUpWithPassword(project, address, "correct horse battery");
    expect((await accept(project, code, invitee)).status).toBe(200);
    expect(await members(teamId)).toContain(invitee.user_id);
  });

  it("by someone already in the team uses the code and changes nothing else", async () => {
    const project = await teamsProject();
    const { owner, teamId } = await teamWithOwner(project);
    const address = email();
    await invite(project, teamId, address, { access: "server" });
    const code = codeIn(await smtp.nextMessage(address));
    expect((await accept(project, code, owner)).status).toBe(200);
    expect(await members(teamId)).toEqual([owner.user_id]);
    expect(await hasTeamPermission(server.db, project.projectId, teamId, owner.user_id, "$delete_team")).toBe(true);
    expectKnownError(await accept(project, code, owner), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("works exactly once when 16 signed-in people race one code", async () => {
    const project = await teamsProject();
    const { owner, teamId } = await teamWithOwner(project);
    const address = email();
    await invite(project, teamId, address, { access: "server" });
    const code = codeIn(await smtp.nextMessage(address));
    const racers = await Promise.all(Array.from({ length: 16 }, () => signUpWithPassword(project, email(), "correct horse battery")));
    const answers = await Promise.all(racers.map((tokens) => accept(project, code, tokens)));
    expect(tally(answers)).toEqual({ ok: 1, VERIFICATION_CODE_ALREADY_USED: 15 });
    const winner = racers[answers.findIndex((a) => a.status === 200)]!;
    expect(await members(teamId)).toEqual([owner.user_id, winner.user_id].sort());
  });

  it("to a team deleted meanwhile answers TEAM_NOT_FOUND", async () => {
    const project = await teamsProject();
    const { teamId } = await teamWithOwner(project);
    const address = email();
    await invite(project, teamId, address, { access: "server" });
    const code = codeIn(await smtp.nextMessage(address));
    await server.db.deleteFrom("teams").where("id", "=", teamId).execute();
    const invitee = await signUpWithPassword(project, address, "correct horse battery");
    expectKnownError(await accept(project, code, invitee), "TEAM_NOT_FOUND", 404);
  });
});
