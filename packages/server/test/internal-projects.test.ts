import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProject } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { getProject } from "../src/services/projects.js";
import { createUser } from "../src/services/users.js";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const call = (path: string, request?: Parameters<typeof api>[2]) => api(server.url, path, request);

interface InternalUser {
  id: string;
  personalTeamId: string;
  accessToken: string;
}

/** A signed-in user of the internal project (a dashboard user), with the personal team it gets on sign-up. */
async function internalUser(): Promise<InternalUser> {
  const internal = await findProject(server.db, "internal");
  const user = await createUser(server.db, internal!, { primaryEmail: `owner-${crypto.randomUUID()}@example.com`, primaryEmailVerified: true });
  const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, "internal"), userId: user.id });
  return { id: user.id, personalTeamId: user.selected_team_id!, accessToken: tokens.access_token };
}

/** Makes the user an administrator (`team_admin`) of a team of the internal project. */
async function makeTeamAdmin(teamId: string, user: InternalUser): Promise<void> {
  await server.db.insertInto("team_member_permissions").values({ project_id: "internal", team_id: teamId, user_id: user.id, permission_id: "team_admin" }).execute();
}

/** Another team of the internal project with the given members. */
async function teamOf(...members: InternalUser[]): Promise<string> {
  const team = await server.db
    .insertInto("teams")
    .values({ project_id: "internal", display_name: "Shared team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const member of members) {
    await server.db.insertInto("team_members").values({ project_id: "internal", team_id: team.id, user_id: member.id, display_name: null, profile_image_url: null }).execute();
  }
  return team.id;
}

const asUser = (user: InternalUser) => ({ access: "client" as const, headers: { "x-stack-access-token": user.accessToken } });

async function createOwnedProject(user: InternalUser, body: Record<string, unknown> = {}) {
  const response = await call("/internal/projects", { ...asUser(user), body: { display_name: "My app", owner_team_id: user.personalTeamId, ...body } });
  expect(response.status).toBe(201);
  return response.body;
}

describe("the internal project's users", () => {
  it("get a personal team, selected, when they are created", async () => {
    const user = await internalUser();
    expect(user.personalTeamId).toMatch(/^[0-9a-f-]{36}$/);
    const membership = await server.db.selectFrom("team_members").selectAll().where("user_id", "=", user.id).execute();
    expect(membership.map((m) => m.team_id)).toEqual([user.personalTeamId]);
  });

  it("see team creation and personal teams in the internal project's config", async () => {
    const response = await call("/internal/projects/current", { access: "admin" });
    expect(response.body.config).toMatchObject({ create_team_on_sign_up: true, client_team_creation_enabled: true });
  });
});

describe("POST /internal/projects", () => {
  it("creates a project owned by the user's team and returns its admin read", async () => {
    const user = await internalUser();
    const created = await createOwnedProject(user, { description: "An app" });
    expect(created).toMatchObject({
      display_name: "My app",
      description: "An app",
      owner_team_id: user.personalTeamId,
      is_production_mode: false,
      config: { credential_enabled: true, allow_localhost: true, sign_up_enabled: true, magic_link_enabled: false, domains: [] },
    });
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.created_at_millis).toBeGreaterThan(Date.now() - 60_000);
  });

  it("applies the legacy config, logos and production mode sent with it", async () => {
    const user = await internalUser();
    const created = await createOwnedProject(user, {
      is_production_mode: true,
      logo_url: "https://example.com/logo.png",
      config: { magic_link_enabled: true, credential_enabled: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] },
    });
    expect(created).toMatchObject({
      is_production_mode: true,
      logo_url: "https://example.com/logo.png",
      full_logo_url: null,
      config: { magic_link_enabled: true, credential_enabled: false, allow_localhost: true, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] },
    });
  });

  it("creates the project without keys; the owner makes them with admin access", async () => {
    const user = await internalUser();
    const created = await createOwnedProject(user);
    const keys = await call("/internal/api-keys", { headers: { "x-stack-project-id": created.id, "x-stack-access-type": "admin", "x-stack-admin-access-token": user.accessToken } });
    expect(keys.status).toBe(200);
    expect(keys.body.items).toEqual([]);
  });

  it("refuses a team the user is not a member of, existing or not", async () => {
    const user = await internalUser();
    const other = await internalUser();
    for (const teamId of [other.personalTeamId, crypto.randomUUID()]) {
      const response = await call("/internal/projects", { ...asUser(user), body: { display_name: "Not mine", owner_team_id: teamId } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: teamId, user_id: user.id } });
    }
    const list = await call("/internal/projects", asUser(other));
    expect(list.body.items).toEqual([]);
  });

  it("validates the body like the protocol", async () => {
    const user = await internalUser();
    const missing = await call("/internal/projects", { ...asUser(user), body: { display_name: "No owner" } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("SCHEMA_ERROR");
    expect(missing.body.error).toContain("body.owner_team_id must be defined");
    const notUuid = await call("/internal/projects", { ...asUser(user), body: { display_name: "Bad owner", owner_team_id: "team" } });
    expect(notUuid.body.error).toContain("body.owner_team_id must be a valid UUID");
  });

  it("rejects a config that is not valid", async () => {
    const user = await internalUser();
    const response = await call("/internal/projects", {
      ...asUser(user),
      body: { display_name: "Bad", owner_team_id: user.personalTeamId, config: { domains: [{ domain: "https://exa mple.com", handler_path: "/handler" }] } },
    });
    expect(response.status).toBe(400);
    const list = await call("/internal/projects", asUser(user));
    expect(list.body.items).toEqual([]);
  });

  it("needs a signed-in user", async () => {
    const response = await call("/internal/projects", { access: "client", body: { display_name: "Anonymous", owner_team_id: crypto.randomUUID() } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });

  it("is only for the internal project", async () => {
    const project = await createTestProject(server);
    const response = await call("/internal/projects", { headers: project.headers("client"), body: { display_name: "Nested", owner_team_id: crypto.randomUUID() } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("EXPECTED_INTERNAL_PROJECT");
    const list = await call("/internal/projects", { headers: project.headers("client") });
    expect(list.body.code).toBe("EXPECTED_INTERNAL_PROJECT");
  });
});

describe("GET /internal/projects", () => {
  it("lists the projects of every team the user belongs to, and no others", async () => {
    const alice = await internalUser();
    const bob = await internalUser();
    const shared = await teamOf(alice, bob);
    const own = await createOwnedProject(alice, { display_name: "Alice's" });
    const common = await createOwnedProject(bob, { display_name: "Shared", owner_team_id: shared });
    const bobs = await createOwnedProject(bob, { display_name: "Bob's" });

    const list = await call("/internal/projects", asUser(alice));
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items.map((p: { id: string }) => p.id)).toEqual([own.id, common.id]);
    expect(list.body.items[1]).toEqual(common);
    expect((await call("/internal/projects", asUser(bob))).body.items.map((p: { id: string }) => p.id)).toEqual([common.id, bobs.id]);
  });

  it("lists nothing for a user whose teams own nothing", async () => {
    const response = await call("/internal/projects", asUser(await internalUser()));
    expect(response.body).toEqual({ items: [], is_paginated: false });
  });

  it("needs a signed-in user", async () => {
    const response = await call("/internal/projects", { access: "client" });
    expect(response.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });
});

describe("POST /internal/projects/transfer", () => {
  const ownerAdmin = (user: InternalUser, projectId: string) => ({
    headers: { "x-stack-project-id": projectId, "x-stack-access-type": "admin", "x-stack-admin-access-token": user.accessToken, "x-stack-access-token": user.accessToken },
  });

  it("moves the project to another team of the user; the old team's other members lose it", async () => {
    const alice = await internalUser();
    const bob = await internalUser();
    const carol = await internalUser();
    const from = await teamOf(alice, bob);
    const to = await teamOf(alice, carol);
    await makeTeamAdmin(from, alice);
    const project = await createOwnedProject(alice, { owner_team_id: from });

    const moved = await call("/internal/projects/transfer", { ...ownerAdmin(alice, project.id), body: { project_id: project.id, new_team_id: to } });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ success: "true" });

    expect((await call("/internal/projects/current", ownerAdmin(carol, project.id))).body.owner_team_id).toBe(to);
    expect((await call("/internal/projects", asUser(bob))).body.items).toEqual([]);
    const lost = await call("/internal/projects/current", ownerAdmin(bob, project.id));
    expect(lost.body.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("works with the internal project's admin key and the user's session too", async () => {
    const user = await internalUser();
    const to = await teamOf(user);
    const project = await createOwnedProject(user);
    const moved = await call("/internal/projects/transfer", { access: "admin", headers: { "x-stack-access-token": user.accessToken }, body: { project_id: project.id, new_team_id: to } });
    expect(moved.status).toBe(200);
    expect((await call("/internal/projects", asUser(user))).body.items[0].owner_team_id).toBe(to);
  });

  it("refuses a team the user is not a member of", async () => {
    const user = await internalUser();
    const other = await internalUser();
    const project = await createOwnedProject(user);
    const response = await call("/internal/projects/transfer", { ...ownerAdmin(user, project.id), body: { project_id: project.id, new_team_id: other.personalTeamId } });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: other.personalTeamId, user_id: user.id } });
    expect((await call("/internal/projects/current", ownerAdmin(user, project.id))).body.owner_team_id).toBe(user.personalTeamId);
  });

  it("refuses a project whose owner team the user does not administer", async () => {
    const user = await internalUser();
    const other = await internalUser();
    const mine = await createOwnedProject(user);
    const theirs = await createOwnedProject(other);
    const response = await call("/internal/projects/transfer", { ...ownerAdmin(user, mine.id), body: { project_id: theirs.id, new_team_id: user.personalTeamId } });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { team_id: other.personalTeamId, user_id: user.id, permission_id: "team_admin" } });
  });

  it("takes any access type on the internal project, and needs a user", async () => {
    const user = await internalUser();
    const project = await createOwnedProject(user);
    const body = { project_id: project.id, new_team_id: user.personalTeamId };
    const client = await call("/internal/projects/transfer", { ...asUser(user), body });
    expect(client.status).toBe(200);
    const noUser = await call("/internal/projects/transfer", { access: "admin", body });
    expect(noUser.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });

  it("validates the body", async () => {
    const user = await internalUser();
    const project = await createOwnedProject(user);
    const response = await call("/internal/projects/transfer", { ...ownerAdmin(user, project.id), body: { project_id: project.id } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain("body.new_team_id must be defined");
  });
});
