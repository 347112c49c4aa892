import { describe, expect, it } from "vitest";
import { CONFIG_WITHOUT_TEAM_ROLES, createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createUser, email, expectKnownError, expectSchemaError, server, signIn, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

const define = async (project: TestProject, scope: "team" | "project", id: string, contained: string[] = []) => {
  const response = await as(project, "admin", `/${scope}-permission-definitions`, { method: "POST", body: { id, contained_permission_ids: contained } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
};
const grant = (project: TestProject, userId: string, permissionId: string) =>
  as(project, "server", `/project-permissions/${userId}/${permissionId}`, { method: "POST", body: {} });
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((item) => item.id);

/** read ⊆ write ⊆ admin, and read ⊆ audit ⊆ admin: a diamond. */
async function projectWithDiamond() {
  const project = await createTestProject(server, "Permissions", { configOverride: CONFIG_WITHOUT_TEAM_ROLES });
  await define(project, "project", "read");
  await define(project, "project", "write", ["read"]);
  await define(project, "project", "audit", ["read"]);
  await define(project, "project", "admin", ["write", "audit"]);
  const user = await createUser(project, { primary_email: email() });
  return { project, user };
}

describe("project permissions", () => {
  it("grants, lists recursively or not, filters by id and revokes", async () => {
    const { project, user } = await projectWithDiamond();
    const granted = await grant(project, user.id, "admin");
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({ id: "admin", user_id: user.id });
    const all = await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=true`);
    expect(all.body).toEqual({ items: ["admin", "audit", "read", "write"].map((id) => ({ id, user_id: user.id })), is_paginated: false });
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}`))).toEqual(["admin"]);
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=false`))).toEqual(["admin"]);
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&permission_id=read&recursive=true`))).toEqual(["read"]);
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&permission_id=read`))).toEqual([]);

    const notDirect = await as(project, "server", `/project-permissions/${user.id}/read`, { method: "DELETE" });
    expectKnownError(notDirect, "PERMISSION_NOT_FOUND", 404);
    const revoked = await as(project, "server", `/project-permissions/${user.id}/admin`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await as(project, "server", `/project-permissions?user_id=${user.id}`)).body.items).toEqual([]);
  });

  it("answers the protocol's errors", async () => {
    const { project, user } = await projectWithDiamond();
    const ghost = crypto.randomUUID();
    expectKnownError(await grant(project, ghost, "read"), "USER_ID_DOES_NOT_EXIST", 400);
    expectKnownError(await as(project, "server", `/project-permissions/${ghost}/read`, { method: "DELETE" }), "USER_ID_DOES_NOT_EXIST", 400);
    expectKnownError(await grant(project, user.id, "nope"), "PERMISSION_NOT_FOUND", 404);
    // A system permission is a team permission.
    const system = await grant(project, user.id, "$update_team");
    expectKnownError(system, "WRONG_PERMISSION_SCOPE", 404);
    expect(system.body.error).toBe('Permission "$update_team" not found. (It was found for a different scope "team", but scope "project" was expected.)');
    await define(project, "team", "team_thing");
    expectKnownError(await grant(project, user.id, "team_thing"), "WRONG_PERMISSION_SCOPE", 404);
    expectSchemaError(await grant(project, "nope", "read"), "params.user_id must be a valid UUID");
    expectSchemaError(await as(project, "server", `/project-permissions/${user.id}/read`, { method: "POST" }), "body must be defined");
    expectKnownError(await grant(project, "me", "read"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lists every holder for a server, and only the signed-in user's for a client", async () => {
    const { project, user } = await projectWithDiamond();
    const other = await createUser(project, { primary_email: email() });
    await grant(project, user.id, "write");
    await grant(project, other.id, "audit");
    const everyone = await as(project, "server", "/project-permissions?recursive=false");
    expect(everyone.body.items).toEqual([{ id: "write", user_id: user.id }, { id: "audit", user_id: other.id }].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)));

    const tokens = await signIn(project, user.id);
    expect(ids(await as(project, "client", "/project-permissions?user_id=me&recursive=true", { tokens }))).toEqual(["read", "write"]);
    for (const query of [`user_id=${other.id}`, ""]) {
      const response = await as(project, "client", `/project-permissions?${query}`, { tokens });
      expect(response.status).toBe(403);
      expect(response.text).toContain("Client can only list permissions for their own user.");
    }
    expectKnownError(await as(project, "client", `/project-permissions/${user.id}/admin`, { method: "POST", body: {}, tokens }), "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(ids(await as(project, "server", `/project-permissions?user_id=${user.id}&recursive=false`))).toEqual(["write"]);
  });

  it("are deleted with the user and with the definition", async () => {
    const { project, user } = await projectWithDiamond();
    const other = await createUser(project, { primary_email: email() });
    await grant(project, user.id, "admin");
    await grant(project, other.id, "write");
    expect((await as(project, "server", `/users/${user.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await server.db.selectFrom("project_user_permissions").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
    await as(project, "admin", "/project-permission-definitions/write", { method: "DELETE" });
    expect((await as(project, "server", `/project-permissions?user_id=${other.id}`)).body.items).toEqual([]);
  });
});

describe("sign-up default permissions", () => {
  it("are granted to users created by a server and to users who sign up", async () => {
    const { project } = await projectWithDiamond();
    await configure(project, { "rbac.defaultPermissions.signUp": { write: true, undefined_one: true }, "auth.password.allowSignIn": true });
    const created = await createUser(project, { primary_email: email() });
    expect(ids(await as(project, "server", `/project-permissions?user_id=${created.id}&recursive=true`))).toEqual(["read", "write"]);
    expect(ids(await as(project, "server", `/project-permissions?user_id=${created.id}&recursive=false`))).toEqual(["write"]);

    const signUp = await as(project, "client", "/auth/password/sign-up", { method: "POST", body: { email: email(), password: "a-long-enough-password-1" } });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
    const tokens = { access_token: signUp.body.access_token, refresh_token: signUp.body.refresh_token };
    expect(ids(await as(project, "client", "/project-permissions?user_id=me&recursive=false", { tokens }))).toEqual(["write"]);
  });

  it("are not granted when the project sets none", async () => {
    const { project } = await projectWithDiamond();
    const created = await createUser(project, { primary_email: email() });
    expect((await as(project, "server", `/project-permissions?user_id=${created.id}`)).body.items).toEqual([]);
  });
});
