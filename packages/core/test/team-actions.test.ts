import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { codeIn, emailProject, linkIn, server, smtp, TRUSTED_ORIGIN, useServerAndSmtpForFile } from "../../server/test/support/email-flow-fixture.js";
import type { TestProject } from "../../server/test/support/test-server.js";
import type { CachedStore } from "../src/stores/cached-store.js";
import { PASSWORD, clientAppFor, email } from "./support/live-server.js";

/**
 * The team actions of the client app against a real server and a real SMTP capture: a team's creator and
 * a second person, each with their own app, doing what the team switcher, team settings and invitation
 * page let them do, and seeing what those widgets would show.
 */
useServerAndSmtpForFile();

const TEAM_SETTINGS_PAGE = `${TRUSTED_ORIGIN}/handler/team-settings`;

/** A project whose users may create teams, with mail going to the capture. */
const teamProject = (override: Record<string, unknown> = {}) => emailProject({ "teams.allowClientTeamCreation": true, ...override });

/** A person signed up on the project, with their own app. */
async function person(project: TestProject) {
  const client = clientAppFor(server, project, { page: TEAM_SETTINGS_PAGE });
  const address = email();
  const { userId } = await client.app.signUpWithCredential({ email: address, password: PASSWORD, noRedirect: true });
  await smtp.nextMessage(address); // the sign-up's verification mail, so later reads get later mail
  return { ...client, address, userId };
}

/** The store's value once loaded, kept subscribed so refreshes after actions land in it. */
async function watch<T>(store: CachedStore<T>) {
  const stop = store.subscribe(() => {});
  await expect.poll(() => store.get().status).toBe("ready");
  const value = () => {
    const state = store.get();
    if (state.status !== "ready") throw new Error(`store is ${state.status}`);
    return state.value;
  };
  return { value, stop };
}

/** The creator invites `invitee`, who reads the mailed link's code (not yet accepted). */
async function invite(owner: Awaited<ReturnType<typeof person>>, teamId: string, invitee: Awaited<ReturnType<typeof person>>) {
  await owner.app.inviteToTeam(teamId, { email: invitee.address });
  const mail = await smtp.nextMessage(invitee.address);
  return { link: linkIn(mail), code: codeIn(mail) };
}

describe("creating and selecting teams", () => {
  it("creates a team, which becomes the selected team and appears in $teams", async () => {
    const owner = await person(await teamProject());
    const [user, teams] = [await watch(owner.app.$user), await watch(owner.app.$teams)];
    expect(teams.value()).toEqual([]);

    const team = await owner.app.createTeam({ displayName: "Acme" });
    expect(team).toMatchObject({ displayName: "Acme", profileImageUrl: null });
    expect(user.value()?.selectedTeamId).toBe(team.id);
    expect(teams.value().map((t) => t.displayName)).toEqual(["Acme"]);

    const second = await owner.app.createTeam({ displayName: "Globex" });
    expect(user.value()?.selectedTeamId).toBe(second.id);
    await owner.app.selectTeam(team.id);
    expect(user.value()?.selectedTeamId).toBe(team.id);
    await owner.app.selectTeam(null);
    expect(user.value()?.selectedTeamId).toBeNull();
    user.stop();
    teams.stop();
  });

  it("renames a team and deletes it, and $teams follows", async () => {
    const owner = await person(await teamProject());
    const teams = await watch(owner.app.$teams);
    const team = await owner.app.createTeam({ displayName: "Acme" });

    const renamed = await owner.app.updateTeam(team.id, { displayName: "Acme Corp", clientMetadata: { plan: "pro" } });
    expect(renamed).toMatchObject({ displayName: "Acme Corp", clientMetadata: { plan: "pro" } });
    expect(teams.value().map((t) => t.displayName)).toEqual(["Acme Corp"]);

    await owner.app.deleteTeam(team.id);
    expect(teams.value()).toEqual([]);
    teams.stop();
  });

  it("refuses team creation with the protocol's error when the project does not allow it", async () => {
    const owner = await person(await emailProject());
    await expect(owner.app.createTeam({ displayName: "Acme" })).rejects.toMatchObject({ status: 403 });
    expect(await owner.app.listTeams()).toEqual([]);
  });
});

describe("members and invitations", () => {
  it("invites by mail; the invited person sees the team, accepts, is listed as a member, and is removed", async () => {
    const project = await teamProject();
    const owner = await person(project);
    const invitee = await person(project);
    const team = await owner.app.createTeam({ displayName: "Acme" });

    const { link, code } = await invite(owner, team.id, invitee);
    // The default callback is the app's team-invitation page, made absolute from the current page.
    expect(link.origin + link.pathname).toBe(`${TRUSTED_ORIGIN}/handler/team-invitation`);
    const [pending] = await owner.app.listTeamInvitations(team.id);
    expect(pending).toMatchObject({ recipientEmail: invitee.address });
    expect(pending!.expiresAt.getTime()).toBeGreaterThan(Date.now());

    expect(await invitee.app.getTeamInvitationDetails(code)).toEqual({ teamId: team.id, teamDisplayName: "Acme" });
    const inviteeTeams = await watch(invitee.app.$teams);
    await invitee.app.acceptTeamInvitation(code);
    expect(inviteeTeams.value().map((t) => t.id)).toEqual([team.id]);
    await expect(invitee.app.acceptTeamInvitation(code)).rejects.toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    expect(await owner.app.listTeamInvitations(team.id)).toEqual([]);

    expect((await owner.app.listTeamMembers(team.id)).map((m) => m.userId).sort()).toEqual([owner.userId, invitee.userId].sort());
    const profile = await invitee.app.updateMyTeamProfile(team.id, { displayName: "Bob at Acme" });
    expect(profile).toMatchObject({ userId: invitee.userId, teamId: team.id, displayName: "Bob at Acme" });
    expect((await owner.app.listTeamMembers(team.id)).find((m) => m.userId === invitee.userId)?.displayName).toBe("Bob at Acme");

    await owner.app.removeTeamMember(team.id, invitee.userId);
    expect((await owner.app.listTeamMembers(team.id)).map((m) => m.userId)).toEqual([owner.userId]);
    expect(await invitee.app.listTeams()).toEqual([]);
    inviteeTeams.stop();
  });

  it("revokes a pending invitation, whose link then no longer works", async () => {
    const project = await teamProject();
    const owner = await person(project);
    const invitee = await person(project);
    const team = await owner.app.createTeam({ displayName: "Acme" });
    const { code } = await invite(owner, team.id, invitee);

    const [pending] = await owner.app.listTeamInvitations(team.id);
    await owner.app.revokeTeamInvitation(team.id, pending!.id);
    expect(await owner.app.listTeamInvitations(team.id)).toEqual([]);
    await expect(invitee.app.getTeamInvitationDetails(code)).rejects.toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    await expect(invitee.app.acceptTeamInvitation(code)).rejects.toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    expect(await invitee.app.listTeams()).toEqual([]);
  });

  it("lets a member leave a team, which disappears from their $teams and their selection", async () => {
    const project = await teamProject();
    const owner = await person(project);
    const member = await person(project);
    const team = await owner.app.createTeam({ displayName: "Acme" });
    await member.app.acceptTeamInvitation((await invite(owner, team.id, member)).code);
    const [user, teams] = [await watch(member.app.$user), await watch(member.app.$teams)];
    await member.app.selectTeam(team.id);
    expect(user.value()?.selectedTeamId).toBe(team.id);

    await member.app.leaveTeam(team.id);
    expect(teams.value()).toEqual([]);
    expect(user.value()?.selectedTeamId).toBeNull();
    expect((await owner.app.listTeamMembers(team.id)).map((m) => m.userId)).toEqual([owner.userId]);
    user.stop();
    teams.stop();
  });
});

describe("team permissions", () => {
  it("lists the creator's permissions, contained ones included", async () => {
    const owner = await person(await teamProject());
    const team = await owner.app.createTeam({ displayName: "Acme" });
    expect((await owner.app.listMyTeamPermissions(team.id)).sort()).toEqual(
      ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team", "team_admin"].sort(),
    );
  });

  it("refuses invitations and removals from a member without the permission, with the protocol's typed error", async () => {
    // Members of this project get no default permissions, so they may not invite or remove anyone.
    const project = await teamProject({ "rbac.defaultPermissions.teamMember": {} });
    const owner = await person(project);
    const member = await person(project);
    const team = await owner.app.createTeam({ displayName: "Acme" });
    await member.app.acceptTeamInvitation((await invite(owner, team.id, member)).code);

    expect(await member.app.listMyTeamPermissions(team.id)).toEqual([]);
    const refusal = await member.app.inviteToTeam(team.id, { email: email() }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    await expect(member.app.listTeamInvitations(team.id)).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    await expect(member.app.removeTeamMember(team.id, owner.userId)).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    await expect(member.app.updateTeam(team.id, { displayName: "Taken over" })).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    expect((await owner.app.listTeams())[0]?.displayName).toBe("Acme");
  });

  it("invites with a role; each member's roles are listed, and a role the inviter lacks is refused with the typed error", async () => {
    const project = await teamProject();
    const [owner, deputy, member] = [await person(project), await person(project), await person(project)];
    const team = await owner.app.createTeam({ displayName: "Acme" });
    await owner.app.inviteToTeam(team.id, { email: deputy.address, permissionIds: ["team_admin"] });
    await deputy.app.acceptTeamInvitation(codeIn(await smtp.nextMessage(deputy.address)));
    await member.app.acceptTeamInvitation((await invite(owner, team.id, member)).code);

    expect(await member.app.listTeamMemberRoles(team.id)).toEqual([
      { userId: owner.userId, permissionIds: ["team_admin"], isAdmin: true },
      { userId: deputy.userId, permissionIds: ["team_admin", "team_member"], isAdmin: true },
      { userId: member.userId, permissionIds: ["team_member"], isAdmin: false },
    ]);
    await expect(member.app.inviteToTeam(team.id, { email: email(), permissionIds: ["team_admin"] })).rejects.toBeInstanceOf(KnownErrors.TeamPermissionRequired);
  });

  it("answers a request about a team the user is not in with the typed membership error", async () => {
    const project = await teamProject();
    const owner = await person(project);
    const stranger = await person(project);
    const team = await owner.app.createTeam({ displayName: "Acme" });
    await expect(stranger.app.inviteToTeam(team.id, { email: email() })).rejects.toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
  });
});

describe("project permissions", () => {
  it("lists the signed-in user's project permissions, contained ones included, and none when signed out", async () => {
    // Everyone who signs up may read invoices, which contains viewing reports; nobody is granted billing.
    const project = await emailProject({
      "rbac.permissions.view_reports": { scope: "project", containedPermissionIds: {} },
      "rbac.permissions.read_invoices": { scope: "project", containedPermissionIds: { view_reports: true } },
      "rbac.permissions.manage_billing": { scope: "project", containedPermissionIds: {} },
      "rbac.defaultPermissions.signUp": { read_invoices: true },
    });
    const someone = await person(project);
    expect((await someone.app.listMyProjectPermissions()).sort()).toEqual(["read_invoices", "view_reports"]);

    await someone.app.signOut();
    expect(await someone.app.listMyProjectPermissions()).toEqual([]);
  });
});
