import { describe, expect, it } from "vitest";
import { CONFIG_WITHOUT_TEAM_ROLES, createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, expectKnownError, expectSchemaError, server, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

const SYSTEM = [
  { id: "$delete_team", description: "Delete the team", contained_permission_ids: [] },
  { id: "$invite_members", description: "Invite other users to the team", contained_permission_ids: [] },
  { id: "$manage_api_keys", description: "Create and manage API keys for the team", contained_permission_ids: [] },
  { id: "$read_members", description: "Read and list the other members of the team", contained_permission_ids: [] },
  { id: "$remove_members", description: "Remove other members from the team", contained_permission_ids: [] },
  { id: "$update_team", description: "Update the team information", contained_permission_ids: [] },
];

const TEAM_ROLES = [
  {
    id: "team_admin",
    description: "Default permission for team admins",
    contained_permission_ids: ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"],
  },
  { id: "team_member", description: "Default permission for team members", contained_permission_ids: ["$invite_members", "$read_members"] },
];

const define = (project: TestProject, scope: "team" | "project", body: Record<string, unknown>) =>
  as(project, "admin", `/${scope}-permission-definitions`, { method: "POST", body });

async function renderedRbac(project: TestProject) {
  const response = await as(project, "admin", "/internal/config");
  expect(response.status).toBe(200);
  return JSON.parse(response.body.config_string).rbac;
}

describe("team permission definitions", () => {
  it("lists the six system permissions and the protocol's two team roles on a new project", async () => {
    const project = await createTestProject(server);
    const response = await as(project, "admin", "/team-permission-definitions");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: [...SYSTEM, ...TEAM_ROLES], is_paginated: false });
    const rbac = await renderedRbac(project);
    expect(rbac.defaultPermissions.teamCreator).toEqual({ team_admin: true });
    expect(rbac.defaultPermissions.teamMember).toEqual({ team_member: true });
  });

  it("lists only the six system permissions once a project's own graph has no roles", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    expect((await as(project, "admin", "/team-permission-definitions")).body).toEqual({ items: SYSTEM, is_paginated: false });
  });

  it("creates, lists sorted, renames and deletes a definition, kept in the project config", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    const created = await define(project, "team", { id: "read:docs", description: "Read docs", contained_permission_ids: ["$read_members"] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: "read:docs", description: "Read docs", contained_permission_ids: ["$read_members"] });
    const bare = await define(project, "team", { id: "admin" });
    expect(bare.body).toEqual({ id: "admin", contained_permission_ids: [] });

    const list = await as(project, "admin", "/team-permission-definitions");
    expect(list.body.items.map((p: { id: string }) => p.id)).toEqual(["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team", "admin", "read:docs"]);
    expect((await renderedRbac(project)).permissions["read:docs"]).toEqual({ description: "Read docs", scope: "team", containedPermissionIds: { $read_members: true } });

    const patched = await as(project, "admin", "/team-permission-definitions/admin", { method: "PATCH", body: { contained_permission_ids: ["read:docs", "$update_team"] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ id: "admin", contained_permission_ids: ["$update_team", "read:docs"] });

    // A rename follows through to the permissions that contain it.
    const renamed = await as(project, "admin", "/team-permission-definitions/read:docs", { method: "PATCH", body: { id: "docs:read" } });
    expect(renamed.body).toEqual({ id: "docs:read", description: "Read docs", contained_permission_ids: ["$read_members"] });
    const afterRename = await as(project, "admin", "/team-permission-definitions");
    expect(afterRename.body.items.find((p: { id: string }) => p.id === "admin")).toEqual({ id: "admin", contained_permission_ids: ["$update_team", "docs:read"] });

    const deleted = await as(project, "admin", "/team-permission-definitions/docs:read", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    const afterDelete = await as(project, "admin", "/team-permission-definitions");
    expect(afterDelete.body.items.map((p: { id: string }) => p.id)).not.toContain("docs:read");
    expect(afterDelete.body.items.find((p: { id: string }) => p.id === "admin").contained_permission_ids).toEqual(["$update_team"]);
  });

  it("refuses an id that exists in either scope", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    expect((await define(project, "project", { id: "billing" })).status).toBe(201);
    const again = await define(project, "team", { id: "billing" });
    expectKnownError(again, "PERMISSION_ID_ALREADY_EXISTS", 400);
    expect(again.body.error).toBe('Permission with ID "billing" already exists. Choose a different ID.');
    expect(again.body.details).toEqual({ permission_id: "billing" });
    await define(project, "team", { id: "other" });
    expectKnownError(await as(project, "admin", "/team-permission-definitions/other", { method: "PATCH", body: { id: "billing" } }), "PERMISSION_ID_ALREADY_EXISTS", 400);
  });

  it("refuses contained permissions that are not defined in the scope", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "project", { id: "project_only" });
    const missing = await define(project, "team", { id: "a", contained_permission_ids: ["nope"] });
    expectKnownError(missing, "CONTAINED_PERMISSION_NOT_FOUND", 400);
    expect(missing.body.error).toBe('Contained permission with ID "nope" not found. Make sure you created it on the dashboard.');
    expectKnownError(await define(project, "team", { id: "a", contained_permission_ids: ["project_only"] }), "CONTAINED_PERMISSION_NOT_FOUND", 400);
    // System permissions are team permissions only.
    expectKnownError(await define(project, "project", { id: "b", contained_permission_ids: ["$update_team"] }), "CONTAINED_PERMISSION_NOT_FOUND", 400);
    // Itself, before it exists.
    expectKnownError(await define(project, "team", { id: "selfish", contained_permission_ids: ["selfish"] }), "CONTAINED_PERMISSION_NOT_FOUND", 400);
    expect((await as(project, "admin", "/team-permission-definitions")).body.items).toEqual(SYSTEM);
  });

  it("refuses cycles, direct and through a chain, and changes nothing", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "team", { id: "c" });
    await define(project, "team", { id: "b", contained_permission_ids: ["c"] });
    await define(project, "team", { id: "a", contained_permission_ids: ["b"] });
    const before = await renderedRbac(project);
    const self = await as(project, "admin", "/team-permission-definitions/a", { method: "PATCH", body: { contained_permission_ids: ["a"] } });
    expect(self.status).toBe(400);
    expect(self.text).toContain("cycles");
    const chain = await as(project, "admin", "/team-permission-definitions/c", { method: "PATCH", body: { contained_permission_ids: ["a"] } });
    expect(chain.status).toBe(400);
    expect(await renderedRbac(project)).toEqual(before);
  });

  it("answers PERMISSION_NOT_FOUND for unknown ids, system ids and the other scope's ids", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "project", { id: "proj" });
    for (const [method, path] of [
      ["PATCH", "/team-permission-definitions/unknown"],
      ["DELETE", "/team-permission-definitions/unknown"],
      ["DELETE", "/team-permission-definitions/$update_team"],
      ["PATCH", "/team-permission-definitions/proj"],
      ["DELETE", "/team-permission-definitions/proj"],
    ] as const) {
      const response = await as(project, "admin", path, { method, body: method === "PATCH" ? { description: "x" } : undefined });
      expectKnownError(response, "PERMISSION_NOT_FOUND", 404);
    }
    const one = await as(project, "admin", "/team-permission-definitions/unknown", { method: "DELETE" });
    expect(one.body.error).toBe('Permission "unknown" not found. Make sure you created it on the dashboard.');
    expect(one.body.details).toEqual({ permission_id: "unknown" });
    expect((await as(project, "admin", "/project-permission-definitions")).body.items).toEqual([{ id: "proj", contained_permission_ids: [] }]);
  });

  it("checks ids with the protocol's rules", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    expectSchemaError(await define(project, "team", { id: "Upper" }), 'Only lowercase letters, numbers, ":", "_" are allowed');
    expectSchemaError(await define(project, "team", { id: "$update_team" }), 'Only lowercase letters, numbers, ":", "_" are allowed');
    expectSchemaError(await define(project, "team", { id: "ok", contained_permission_ids: ["$not_system"] }), "Invalid system permission");
    expectSchemaError(await define(project, "team", { id: "ok", contained_permission_ids: ["bad-id"] }), "Only lowercase letters");
    expectSchemaError(await define(project, "team", { description: "no id" }), "body.id must be defined");
    expectSchemaError(await define(project, "team", { id: "ok", unknown: 1 }), "unknown properties: unknown");
    expectSchemaError(await as(project, "admin", "/team-permission-definitions/$nope", { method: "DELETE" }), "Invalid system permission");
  });

  it("is for admins only", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    for (const access of ["client", "server"] as const) {
      expectKnownError(await as(project, access, "/team-permission-definitions"), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await as(project, access, "/project-permission-definitions", { method: "POST", body: { id: "x" } }), "INSUFFICIENT_ACCESS_TYPE", 401);
    }
  });

  it("sees definitions written through a raw config override", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await configure(project, { "rbac.permissions.from_config": { scope: "project", description: "From config" } });
    const list = await as(project, "admin", "/project-permission-definitions");
    expect(list.body.items).toEqual([{ id: "from_config", description: "From config", contained_permission_ids: [] }]);
  });
});

describe("ids that are JavaScript property names", () => {
  it("are ordinary permissions, through create, grant, rename and delete", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    expect((await define(project, "project", { id: "__proto__" })).status).toBe(201);
    expect((await define(project, "project", { id: "constructor", contained_permission_ids: ["__proto__"] })).status).toBe(201);
    const user = await as(project, "server", "/users", { method: "POST", body: {} });
    expect((await as(project, "server", `/project-permissions/${user.body.id}/constructor`, { method: "POST", body: {} })).status).toBe(201);
    const listed = await as(project, "server", `/project-permissions?user_id=${user.body.id}&recursive=true`);
    expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual(["__proto__", "constructor"]);
    expect((await as(project, "admin", "/project-permission-definitions/__proto__", { method: "PATCH", body: { id: "proto" } })).status).toBe(200);
    expect((await as(project, "admin", "/project-permission-definitions")).body.items).toEqual([
      { id: "constructor", contained_permission_ids: ["proto"] },
      { id: "proto", contained_permission_ids: [] },
    ]);
    expect((await as(project, "admin", "/project-permission-definitions/constructor", { method: "DELETE" })).status).toBe(200);
    expect((await as(project, "server", `/project-permissions?user_id=${user.body.id}`)).body.items).toEqual([]);
  });
});

describe("concurrent definition edits", () => {
  it("lose none of many creates made at once", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => define(project, "project", { id: `p${i}` })));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect((await as(project, "admin", "/project-permission-definitions")).body.items).toHaveLength(10);
  });

  it("let one of two creates of one id win", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    const responses = await Promise.all(Array.from({ length: 5 }, () => define(project, "team", { id: "same" })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 201)) expectKnownError(r, "PERMISSION_ID_ALREADY_EXISTS", 400);
  });

  it("cannot close a cycle from two sides at once", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "team", { id: "a" });
    await define(project, "team", { id: "b" });
    const [ab, ba] = await Promise.all([
      as(project, "admin", "/team-permission-definitions/a", { method: "PATCH", body: { contained_permission_ids: ["b"] } }),
      as(project, "admin", "/team-permission-definitions/b", { method: "PATCH", body: { contained_permission_ids: ["a"] } }),
    ]);
    expect([ab!.status, ba!.status].sort()).toEqual([200, 400]);
    const items = (await as(project, "admin", "/team-permission-definitions")).body.items.filter((p: { id: string }) => !p.id.startsWith("$"));
    expect(items.filter((p: { contained_permission_ids: string[] }) => p.contained_permission_ids.length > 0)).toHaveLength(1);
  });
});

describe("project permission definitions", () => {
  it("start empty and keep to the project scope", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    expect((await as(project, "admin", "/project-permission-definitions")).body).toEqual({ items: [], is_paginated: false });
    await define(project, "project", { id: "read" });
    const created = await define(project, "project", { id: "write", description: "Write", contained_permission_ids: ["read"] });
    expect(created.body).toEqual({ id: "write", description: "Write", contained_permission_ids: ["read"] });
    expect((await as(project, "admin", "/project-permission-definitions")).body.items.map((p: { id: string }) => p.id)).toEqual(["read", "write"]);
    expect((await as(project, "admin", "/team-permission-definitions")).body.items).toEqual(SYSTEM);
  });
});
