import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { APP_ORIGIN, adminAppFor, createTestProject, email, useLiveServer } from "./support/live-server.js";

/**
 * The dashboard's Teams and Permissions pages through the admin app: any team of the project with its members,
 * invitations and members' permissions, and the project's permission definitions, against the real server.
 */
const live = useLiveServer();

describe("an admin app's teams", () => {
  it("creates, lists, reads, renames and deletes teams with their server fields", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    expect(await admin.listServerTeams()).toEqual([]);

    const team = await admin.createServerTeam({ displayName: "Support", serverMetadata: { plan: "pro" }, clientReadOnlyMetadata: { seats: 3 } });
    expect(team).toMatchObject({ displayName: "Support", serverMetadata: { plan: "pro" }, clientReadOnlyMetadata: { seats: 3 }, clientMetadata: null });
    expect(team.createdAt).toBeInstanceOf(Date);
    // Made by a server without a creator, the team starts empty.
    expect(await admin.listServerTeamMembers(team.id)).toEqual([]);

    const renamed = await admin.updateServerTeam(team.id, { displayName: "Customer support", clientMetadata: { color: "blue" } });
    expect(renamed).toMatchObject({ displayName: "Customer support", clientMetadata: { color: "blue" }, serverMetadata: { plan: "pro" } });
    expect(await admin.getServerTeam(team.id)).toEqual(renamed);
    expect((await admin.listServerTeams()).map((t) => t.displayName)).toEqual(["Customer support"]);

    await admin.deleteServerTeam(team.id);
    expect(await admin.listServerTeams()).toEqual([]);
    await expect(admin.getServerTeam(team.id)).rejects.toBeInstanceOf(KnownErrors.TeamNotFound);
  });

  it("adds and removes members, grants and revokes their team permissions, and lists a user's teams", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const creator = await admin.createUser({ primaryEmail: email(), displayName: "Creator" });
    const member = await admin.createUser({ primaryEmail: email(), displayName: "Member" });
    const team = await admin.createServerTeam({ displayName: "Ops", creatorUserId: creator.id });
    await admin.addServerTeamMember(team.id, member.id);

    const members = await admin.listServerTeamMembers(team.id);
    expect(members.map((m) => [m.userId, m.user.displayName])).toEqual([
      [creator.id, "Creator"],
      [member.id, "Member"],
    ]);
    expect(members[1]!.user.primaryEmail).toBe(member.primaryEmail);
    expect((await admin.listServerTeams({ userId: member.id })).map((t) => t.id)).toEqual([team.id]);

    await admin.createPermissionDefinition("team", { id: "read_reports" });
    const before = (await admin.listTeamPermissionGrants(team.id)).filter((g) => g.userId === member.id).map((g) => g.permissionId);
    await admin.grantTeamPermission(team.id, member.id, "read_reports");
    const granted = await admin.listTeamPermissionGrants(team.id);
    expect(granted).toContainEqual({ teamId: team.id, userId: member.id, permissionId: "read_reports" });
    await admin.revokeTeamPermission(team.id, member.id, "read_reports");
    expect((await admin.listTeamPermissionGrants(team.id)).filter((g) => g.userId === member.id).map((g) => g.permissionId)).toEqual(before);

    await admin.removeServerTeamMember(team.id, member.id);
    expect((await admin.listServerTeamMembers(team.id)).map((m) => m.userId)).toEqual([creator.id]);
  });

  it("sends, lists and revokes invitations", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const team = await admin.createServerTeam({ displayName: "Sales" });
    const recipient = email();
    const { invitationId } = await admin.sendServerTeamInvitation(team.id, { email: recipient, callbackUrl: `${APP_ORIGIN}/handler/team-invitation` });
    const [invitation] = await admin.listServerTeamInvitations(team.id);
    expect(invitation).toMatchObject({ id: invitationId, recipientEmail: recipient });
    expect(invitation!.expiresAt.getTime()).toBeGreaterThan(Date.now());

    await admin.revokeServerTeamInvitation(team.id, invitationId);
    expect(await admin.listServerTeamInvitations(team.id)).toEqual([]);
  });
});

describe("an admin app's permission definitions", () => {
  it("creates, edits, renames and deletes team and project permissions with their contained ones", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const initial = await admin.listPermissionDefinitions("team");
    expect(initial.filter((p) => p.isSystem).map((p) => p.id)).toContain("$update_team");
    const initialIds = initial.map((p) => p.id);

    await admin.createPermissionDefinition("team", { id: "read", description: "Reads things" });
    const write = await admin.createPermissionDefinition("team", { id: "write", containedPermissionIds: ["read", "$update_team"] });
    expect(write).toEqual({ id: "write", description: null, containedPermissionIds: ["$update_team", "read"].sort(), isSystem: false });
    expect((await admin.listPermissionDefinitions("team")).find((p) => p.id === "read")).toEqual({
      id: "read",
      description: "Reads things",
      containedPermissionIds: [],
      isSystem: false,
    });

    // A cycle is refused with the server's message.
    await expect(admin.updatePermissionDefinition("team", "read", { containedPermissionIds: ["write"] })).rejects.toThrow(/cycle/);
    const edited = await admin.updatePermissionDefinition("team", "write", { id: "edit", description: "Edits things", containedPermissionIds: ["read"] });
    expect(edited).toEqual({ id: "edit", description: "Edits things", containedPermissionIds: ["read"], isSystem: false });

    const admins = await admin.createPermissionDefinition("project", { id: "admin" });
    expect((await admin.listPermissionDefinitions("project")).map((p) => p.id)).toEqual([admins.id]);
    // Ids are unique across both scopes.
    await expect(admin.createPermissionDefinition("project", { id: "edit" })).rejects.toBeInstanceOf(KnownErrors.PermissionIdAlreadyExists);

    await admin.deletePermissionDefinition("team", "edit");
    await admin.deletePermissionDefinition("project", "admin");
    expect((await admin.listPermissionDefinitions("team")).map((p) => p.id)).toEqual([...initialIds, "read"].sort());
    expect(await admin.listPermissionDefinitions("project")).toEqual([]);
  });
});
