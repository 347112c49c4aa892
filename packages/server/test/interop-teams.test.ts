import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, managing teams against Latchkey:
// a signed-in user creates, lists, updates and leaves teams; a server adds and removes members.
let server: TestServer;
let project: TestProject;
beforeAll(async () => {
  server = await startTestServer();
  project = await createTestProject(server, "SDK teams");
  // Clients create teams; creators hold every system permission, plain members only $read_members.
  const configured = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: {
      config_override_string: JSON.stringify({
        "teams.allowClientTeamCreation": true,
        "rbac.defaultPermissions.teamCreator": { $update_team: true, $delete_team: true, $read_members: true, $remove_members: true, $invite_members: true },
        "rbac.defaultPermissions.teamMember": { $read_members: true },
      }),
    },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const verificationCallbackUrl = "http://localhost:3000/handler/email-verification";
const sdk = () => stackSdk(server, project);

async function signedUpClient(displayName: string) {
  const app = sdk().client();
  const email = `sdk-${crypto.randomUUID()}@example.com`;
  expect((await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, verificationCallbackUrl })).status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  await user.update({ displayName });
  return { app, user: await app.getUser({ or: "throw" }) };
}

describe("the published Stack SDK with teams", () => {
  it("lets a signed-in user create, list, update and leave a team, and edit their team profile", async () => {
    const { app, user } = await signedUpClient("Ada");
    const team = await user.createTeam({ displayName: "Analytical Engines" });
    expect(team.displayName).toBe("Analytical Engines");

    const current = await app.getUser({ or: "throw" });
    expect(current.selectedTeam?.id).toBe(team.id);
    expect((await current.listTeams()).map((t) => t.displayName)).toEqual(["Analytical Engines"]);
    expect((await current.getTeam(team.id))?.id).toBe(team.id);

    await team.update({ displayName: "Difference Engines", clientMetadata: { motto: "compute" } });
    const [renamed] = await current.listTeams();
    expect(renamed).toMatchObject({ displayName: "Difference Engines", clientMetadata: { motto: "compute" } });

    const profile = await current.getTeamProfile(team);
    expect(profile.displayName).toBe("Ada");
    await profile.update({ displayName: "Countess" });
    const members = await renamed!.listUsers();
    expect(members).toEqual([{ id: user.id, teamProfile: { displayName: "Countess", profileImageUrl: null } }]);

    await current.leaveTeam(team);
    const serverTeam = await sdk().server().getTeam(team.id);
    expect(await serverTeam!.listUsers()).toEqual([]);
    const afterLeaving = await sdk().server().getUser(user.id);
    expect(afterLeaving?.selectedTeam).toBeNull();
  });

  it("lets a server create a team for a user, add and remove members, update and delete it", async () => {
    const serverApp = sdk().server();
    const owner = await serverApp.createUser({ displayName: "Owner" });
    const member = await serverApp.createUser({ displayName: "Member" });
    const team = await serverApp.createTeam({ displayName: "Server made", creatorUserId: owner.id });
    expect(team.createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await serverApp.listTeams()).map((t) => t.id)).toContain(team.id);

    await team.addUser(member.id);
    const users = await team.listUsers();
    expect(users.map((u) => [u.id, u.teamProfile.displayName])).toEqual([
      [owner.id, "Owner"],
      [member.id, "Member"],
    ]);
    await expect(team.addUser(member.id)).rejects.toMatchObject({ errorCode: "TEAM_MEMBERSHIP_ALREADY_EXISTS" });

    await team.removeUser(member.id);
    expect((await team.listUsers()).map((u) => u.id)).toEqual([owner.id]);
    await expect(team.removeUser(member.id)).rejects.toMatchObject({ errorCode: "TEAM_MEMBERSHIP_NOT_FOUND" });

    await team.update({ displayName: "Renamed", serverMetadata: { tier: "gold" } });
    const updated = await serverApp.getTeam(team.id);
    expect(updated).toMatchObject({ displayName: "Renamed", serverMetadata: { tier: "gold" } });

    await updated!.delete();
    expect(await serverApp.getTeam(team.id)).toBeNull();
    expect((await serverApp.getUser(owner.id))?.selectedTeam).toBeNull();
  });

  it("shows a member the teams a server added them to, and refuses changes they hold no permission for", async () => {
    const { app, user } = await signedUpClient("Grace");
    const serverApp = sdk().server();
    const team = await serverApp.createTeam({ displayName: "Navy" });
    await team.addUser(user.id);

    const [seen] = await (await app.getUser({ or: "throw" })).listTeams();
    expect(seen?.id).toBe(team.id);
    await expect(seen!.update({ displayName: "Mine now" })).rejects.toMatchObject({ errorCode: "TEAM_PERMISSION_REQUIRED" });
    await expect(seen!.delete()).rejects.toMatchObject({ errorCode: "TEAM_PERMISSION_REQUIRED" });
    // $read_members is a member default here, so the member sees the team's people.
    expect((await seen!.listUsers()).map((u) => u.id)).toEqual([user.id]);
    expect((await serverApp.getTeam(team.id))?.displayName).toBe("Navy");
  });
});
