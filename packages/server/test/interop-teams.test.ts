import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, managing teams against Latchkey:
// a signed-in user creates, lists, updates and leaves teams; a server adds and removes members; API keys.
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
        "rbac.defaultPermissions.teamCreator": { $update_team: true, $delete_team: true, $read_members: true, $remove_members: true, $invite_members: true, $manage_api_keys: true },
        "apiKeys.enabled.user": true,
        "apiKeys.enabled.team": true,
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

  it("selects a new team only where the SDK itself selects it: a user's createTeam does, a server's createTeam for a user does not", async () => {
    const { app, user } = await signedUpClient("Lin");
    const serverApp = sdk().server();
    // The SDK's user.createTeam creates the team, then selects it with its own update of the user.
    const own = await user.createTeam({ displayName: "Lin's own" });
    expect((await app.getUser({ or: "throw" })).selectedTeam?.id).toBe(own.id);

    // StackServerApp.createTeam only creates: the creator joins, the selection stays.
    const made = await serverApp.createTeam({ displayName: "Made for Lin", creatorUserId: user.id });
    const afterServerCreate = await app.getUser({ or: "throw" });
    expect(afterServerCreate.selectedTeam?.id).toBe(own.id);
    expect((await afterServerCreate.listTeams()).map((t) => t.id).sort()).toEqual([own.id, made.id].sort());

    // Adding the user to a team leaves the selection too.
    const joined = await serverApp.createTeam({ displayName: "Joined" });
    await joined.addUser(user.id);
    expect((await serverApp.getUser(user.id))?.selectedTeam?.id).toBe(own.id);

    // The server-side user object's createTeam selects, as the SDK updates the user after creating.
    const serverUser = await serverApp.getUser(user.id);
    const viaServerUser = await serverUser!.createTeam({ displayName: "Via server user" });
    expect((await serverApp.getUser(user.id))?.selectedTeam?.id).toBe(viaServerUser.id);
  });

  it("lists a user's and a team's API keys newest first", async () => {
    const { app, user } = await signedUpClient("Keys");
    const first = await user.createApiKey({ description: "first", expiresAt: null });
    const second = await user.createApiKey({ description: "second", expiresAt: null });
    const third = await user.createApiKey({ description: "third", expiresAt: null });
    expect((await user.listApiKeys()).map((k) => k.id)).toEqual([third.id, second.id, first.id]);

    const team = await user.createTeam({ displayName: "Key holders" });
    const [clientTeam] = await (await app.getUser({ or: "throw" })).listTeams();
    expect(clientTeam?.id).toBe(team.id);
    const older = await clientTeam!.createApiKey({ description: "older", expiresAt: null });
    const newer = await clientTeam!.createApiKey({ description: "newer", expiresAt: null });
    expect((await clientTeam!.listApiKeys()).map((k) => k.description)).toEqual(["newer", "older"]);
    expect((await clientTeam!.listApiKeys()).map((k) => k.id)).toEqual([newer.id, older.id]);

    // Revoking twice through the SDK: both succeed, and the key stays revoked.
    await second.revoke();
    await second.revoke();
    const listed = await user.listApiKeys();
    expect(listed.map((k) => [k.description, k.whyInvalid()])).toEqual([["third", null], ["second", "manually-revoked"], ["first", null]]);
  });
});

describe("the 2.8.108 SDK's team lists", () => {
  it("pages, orders and searches a server's teams, and a user's", async () => {
    const own = await createTestProject(server, "SDK team pages");
    const app: any = stackSdk(server, own, "2.8.108").server();
    const names = ["Alpha", "Beta", "Gamma", "Alpine", "Delta"];
    const made: Array<{ id: string }> = [];
    for (const displayName of names) made.push(await app.createTeam({ displayName }));
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await app.listTeams({ limit: 2, cursor });
      pages.push(page.map((team: { displayName: string }) => team.displayName));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual([["Alpha", "Beta"], ["Gamma", "Alpine"], ["Delta"]]);
    expect((await app.listTeams({ orderBy: "createdAt", desc: true, limit: 2 })).map((team: { displayName: string }) => team.displayName)).toEqual(["Delta", "Alpine"]);
    expect((await app.listTeams({ query: "alp" })).map((team: { displayName: string }) => team.displayName)).toEqual(["Alpha", "Alpine"]);
    expect((await app.listTeams({ query: made[2]!.id })).map((team: { displayName: string }) => team.displayName)).toEqual(["Gamma"]);
    const user = await app.createUser({ primaryEmail: `pages-${crypto.randomUUID()}@example.com` });
    for (const team of [made[1]!, made[3]!]) await (await app.getTeam(team.id)).addUser(user.id);
    expect((await user.listTeams()).map((team: { displayName: string }) => team.displayName)).toEqual(["Beta", "Alpine"]);
    // The older protocol has no paging here: a limit is an unknown property.
    const older = await api(server.url, "/teams?limit=2", { headers: own.headers("server") });
    expect(older.body.error).toContain("query contains unknown properties: limit");
  });
});
