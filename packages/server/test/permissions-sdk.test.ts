import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerTeam, Team } from "@stackframe/js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, defining permissions as an admin,
// granting and checking them as a server and checking them as the signed-in user.
let server: TestServer;
let project: TestProject;

beforeAll(async () => {
  server = await startTestServer();
  project = await createTestProject(server, "SDK Permissions");
});
afterAll(async () => {
  await server?.close();
});

/** A team with the given members, made in the database: teams are another module's routes. */
async function teamWith(memberIds: string[]): Promise<{ id: string }> {
  const team = await server.db
    .insertInto("teams")
    .values({ project_id: project.projectId, display_name: "SDK team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const userId of memberIds) {
    await server.db.insertInto("team_members").values({ project_id: project.projectId, team_id: team.id, user_id: userId, display_name: null, profile_image_url: null }).execute();
  }
  return { id: team.id };
}

describe("permissions through the published Stack SDK", () => {
  it("defines team permissions, grants one and checks what it contains, as server and as the user", async () => {
    const sdk = stackSdk(server, project);
    const admin = sdk.admin();
    await admin.createTeamPermissionDefinition({ id: "docs:read", description: "Read docs", containedPermissionIds: ["$read_members"] });
    const editor = await admin.createTeamPermissionDefinition({ id: "docs:edit", description: "Edit docs", containedPermissionIds: ["docs:read"] });
    expect(editor).toMatchObject({ id: "docs:edit", description: "Edit docs", containedPermissionIds: ["docs:read"] });
    expect((await admin.listTeamPermissionDefinitions()).map((p) => p.id)).toEqual(expect.arrayContaining(["$update_team", "docs:edit", "docs:read"]));

    const client = sdk.client();
    const email = `perm-${crypto.randomUUID()}@example.com`;
    expect((await client.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })).status).toBe("ok");
    const me = await client.getUser({ or: "throw" });
    const team = await teamWith([me.id]);

    const serverApp = sdk.server();
    const serverUser = (await serverApp.getUser(me.id))!;
    await serverUser.grantPermission(team as ServerTeam, "docs:edit");
    expect(await serverUser.hasPermission(team as ServerTeam, "docs:read")).toBe(true);
    expect(await serverUser.hasPermission(team as ServerTeam, "$read_members")).toBe(true);
    expect(await serverUser.hasPermission(team as ServerTeam, "$delete_team")).toBe(false);
    expect((await serverUser.listPermissions(team as ServerTeam, { recursive: false })).map((p) => p.id)).toEqual(["docs:edit"]);

    expect(await me.hasPermission(team as Team, "docs:read")).toBe(true);
    expect((await me.listPermissions(team as Team)).map((p) => p.id).sort()).toEqual(["$read_members", "docs:edit", "docs:read"]);

    await serverUser.revokePermission(team as ServerTeam, "docs:edit");
    expect(await serverUser.hasPermission(team as ServerTeam, "docs:read")).toBe(false);
  });

  it("grants and checks a project permission", async () => {
    const sdk = stackSdk(server, project);
    await sdk.admin().createProjectPermissionDefinition({ id: "billing:view", description: "View billing", containedPermissionIds: [] });
    await sdk.admin().createProjectPermissionDefinition({ id: "billing:manage", description: "Manage billing", containedPermissionIds: ["billing:view"] });
    const user = await sdk.server().createUser({ primaryEmail: `proj-${crypto.randomUUID()}@example.com` });
    expect(await user.hasPermission("billing:view")).toBe(false);
    await user.grantPermission("billing:manage");
    expect(await user.hasPermission("billing:view")).toBe(true);
    expect((await user.listPermissions({ recursive: false })).map((p) => p.id)).toEqual(["billing:manage"]);
    await user.revokePermission("billing:manage");
    expect(await user.hasPermission("billing:view")).toBe(false);
  });

  it("updates and deletes a definition through the admin app", async () => {
    const admin = stackSdk(server, project).admin();
    await admin.createTeamPermissionDefinition({ id: "reviewer", description: "Old", containedPermissionIds: [] });
    await admin.updateTeamPermissionDefinition("reviewer", { description: "Reviews", containedPermissionIds: ["$read_members"] });
    const found = (await admin.listTeamPermissionDefinitions()).find((p) => p.id === "reviewer");
    expect(found).toMatchObject({ id: "reviewer", description: "Reviews", containedPermissionIds: ["$read_members"] });
    await admin.deleteTeamPermissionDefinition("reviewer");
    expect((await admin.listTeamPermissionDefinitions()).map((p) => p.id)).not.toContain("reviewer");
  });

  it("pages and searches team definitions through the 2.8.108 admin app, and keeps 2.8.41 to one list", async () => {
    const own = await createTestProject(server, "SDK permission pages");
    const admin: any = stackSdk(server, own, "2.8.108").admin();
    for (const id of ["audit:read", "audit:write", "billing:view"]) await admin.createTeamPermissionDefinition({ id, description: `Can ${id}`, containedPermissionIds: [] });
    const everyId = (await admin.listTeamPermissionDefinitions()).map((p: { id: string }) => p.id);
    expect(everyId).toEqual([...everyId].sort());
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.listTeamPermissionDefinitionsPaginated({ limit: 4, cursor });
      expect(page.items.length).toBeLessThanOrEqual(4);
      pages.push(page.items.map((p: { id: string }) => p.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.flat()).toEqual(everyId);
    expect(pages.length).toBe(Math.ceil(everyId.length / 4));
    const audit = await admin.listTeamPermissionDefinitionsPaginated({ limit: 1, query: "AUDIT" });
    expect([audit.items.map((p: { id: string }) => p.id), audit.nextCursor]).toEqual([["audit:read"], "audit:write"]);
    // The older protocol has no such parameters: its list is one page, and a limit is an unknown property.
    const older = await fetch(`${server.url}/api/v1/team-permission-definitions?limit=2`, { headers: own.headers("admin") });
    expect((await older.json()).error).toContain("query contains unknown properties: limit");
  });
});
