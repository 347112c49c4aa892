import { describe, expect, it } from "vitest";
import { CONFIG_WITHOUT_TEAM_ROLES, createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createTeam, createUser, server, signIn, useServerForFile } from "./support/users-fixture.js";

/**
 * Issue 13 §3: `GET /team-permissions` and `GET /project-permissions` list the directly granted ids only,
 * unless `recursive=true`; the default permission lists of a project's config come sorted by id.
 */
useServerForFile();

async function define(project: TestProject, scope: "team" | "project", id: string, contained: string[] = []) {
  const response = await as(project, "admin", `/${scope}-permission-definitions`, { method: "POST", body: { id, contained_permission_ids: contained } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

const ids = (response: { status: number; body: { items: { id: string }[] } }) => {
  expect(response.status).toBe(200);
  return response.body.items.map((item) => item.id);
};

describe("GET /team-permissions", () => {
  it("lists only the direct grant without recursive or with recursive=false, and what it contains with recursive=true", async () => {
    const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    await define(project, "team", "reader", ["$read_members"]);
    await define(project, "team", "editor", ["reader", "$update_team"]);
    const user = await createUser(project);
    const teamId = await createTeam(project, [user.id]);
    expect((await as(project, "server", `/team-permissions/${teamId}/${user.id}/editor`, { method: "POST", body: {} })).status).toBe(201);

    const base = `/team-permissions?team_id=${teamId}&user_id=${user.id}`;
    expect((await as(project, "server", base)).body).toEqual({ items: [{ id: "editor", user_id: user.id, team_id: teamId }], is_paginated: false });
    expect(ids(await as(project, "server", `${base}&recursive=false`))).toEqual(["editor"]);
    expect(ids(await as(project, "server", `${base}&recursive=true`))).toEqual(["$read_members", "$update_team", "editor", "reader"]);
    // A check for a contained permission finds it only when asked recursively.
    expect(ids(await as(project, "server", `${base}&permission_id=reader`))).toEqual([]);
    expect(ids(await as(project, "server", `${base}&permission_id=reader&recursive=true`))).toEqual(["reader"]);

    // The same for a client listing its own.
    const tokens = await signIn(project, user.id);
    expect(ids(await as(project, "client", `/team-permissions?team_id=${teamId}&user_id=me`, { tokens }))).toEqual(["editor"]);
    expect(ids(await as(project, "client", `/team-permissions?team_id=${teamId}&user_id=me&recursive=true`, { tokens }))).toEqual(["$read_members", "$update_team", "editor", "reader"]);
  });
});

describe("GET /project-permissions", () => {
  it("lists only the direct grant without recursive or with recursive=false, and what it contains with recursive=true", async () => {
    const project = await createTestProject(server);
    await define(project, "project", "read");
    await define(project, "project", "admin", ["read"]);
    const user = await createUser(project);
    expect((await as(project, "server", `/project-permissions/${user.id}/admin`, { method: "POST", body: {} })).status).toBe(201);

    expect((await as(project, "server", `/project-permissions?user_id=${user.id}`)).body).toEqual({ items: [{ id: "admin", user_id: user.id }], is_paginated: false });
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=false`))).toEqual(["admin"]);
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=true`))).toEqual(["admin", "read"]);

    const tokens = await signIn(project, user.id);
    expect(ids(await as(project, "client", "/project-permissions?user_id=me", { tokens }))).toEqual(["admin"]);
    expect(ids(await as(project, "client", "/project-permissions?user_id=me&recursive=true", { tokens }))).toEqual(["admin", "read"]);
  });
});

describe("the default permission lists of a project's config", () => {
  it("come sorted by id, whatever order they were set in", async () => {
    const project = await createTestProject(server, "Defaults", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
    for (const id of ["zeta", "alpha", "mid"]) await define(project, "team", id);
    for (const id of ["writer", "billing", "reader"]) await define(project, "project", id);
    await configure(project, {
      "rbac.defaultPermissions.teamCreator": { zeta: true, $update_team: true, alpha: true, mid: true },
      "rbac.defaultPermissions.teamMember": { mid: true, alpha: true, $read_members: true },
      "rbac.defaultPermissions.signUp": { writer: true, billing: true, reader: true },
    });
    const read = await as(project, "admin", "/internal/projects/current");
    expect(read.status).toBe(200);
    expect(read.body.config.team_creator_default_permissions).toEqual([{ id: "$update_team" }, { id: "alpha" }, { id: "mid" }, { id: "zeta" }]);
    expect(read.body.config.team_member_default_permissions).toEqual([{ id: "$read_members" }, { id: "alpha" }, { id: "mid" }]);
    expect(read.body.config.user_default_permissions).toEqual([{ id: "billing" }, { id: "reader" }, { id: "writer" }]);
  });
});
