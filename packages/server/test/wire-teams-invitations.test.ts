import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { configure, email, emailProject, expectKnownError, post, server, signUpWithPassword, type Tokens, useServerAndSmtpForFile } from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";

/**
 * Issue 13 §3: what a client needs to list and revoke a team's invitations. Listing: membership, then
 * `$read_members`, then `$invite_members`, the error naming the first missing. Revoking: `$remove_members`.
 */
useServerAndSmtpForFile();

const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

/** A team (made by the server, no default grants) with one pending invitation, and a signed-in member. */
async function teamWithInvitation() {
  const project = await emailProject();
  await configure(project, { "rbac.defaultPermissions.teamCreator": {}, "rbac.defaultPermissions.teamMember": {} });
  const team = await api(server.url, "/teams", { method: "POST", headers: project.headers("server"), body: { display_name: "Rocket Team" } });
  expect(team.status).toBe(201);
  const member = await signUpWithPassword(project, email(), "correct horse battery");
  const joined = await api(server.url, `/team-memberships/${team.body.id}/${member.user_id}`, { method: "POST", headers: project.headers("server"), body: {} });
  expect(joined.status).toBe(201);
  const sent = await post(project, "/team-invitations/send-code", { team_id: team.body.id, email: email(), callback_url: INVITATION_PAGE }, { access: "server" });
  expect(sent.status).toBe(200);
  return { project, teamId: team.body.id as string, member, invitationId: sent.body.id as string };
}

async function grant(project: TestProject, teamId: string, userId: string, permissionId: string) {
  const granted = await api(server.url, `/team-permissions/${teamId}/${userId}/${permissionId}`, { method: "POST", headers: project.headers("server"), body: {} });
  expect(granted.status).toBe(201);
}

const asClient = (project: TestProject, tokens: Tokens) => ({ ...project.headers("client"), "x-stack-access-token": tokens.access_token });
const list = (project: TestProject, teamId: string, tokens: Tokens) => api(server.url, `/team-invitations?team_id=${teamId}`, { headers: asClient(project, tokens) });
const revoke = (project: TestProject, teamId: string, invitationId: string, tokens: Tokens) =>
  api(server.url, `/team-invitations/${invitationId}?team_id=${teamId}`, { method: "DELETE", headers: asClient(project, tokens) });

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
