import { describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../../src/env.js";
import { findProject } from "../../src/services/projects.js";
import { signInUser } from "../../src/services/sessions.js";
import { getProject } from "../../src/services/projects.js";
import { createUser } from "../../src/services/users.js";
import { api } from "../support/api.js";
import { as, server } from "../support/users-fixture.js";

// `POST /internal/projects/transfer` as the protocol answers it (issue 13 §4): any access type on the
// internal project with a signed-in user; `team_admin` of the current owner team is checked first (401
// TEAM_PERMISSION_REQUIRED), then membership of the new team (404 TEAM_MEMBERSHIP_NOT_FOUND); the answer is
// `{"success":"true"}`, a string.
describe("POST /internal/projects/transfer", () => {
  interface Owner {
    id: string;
    personalTeamId: string;
    accessToken: string;
  }

  async function internalUser(): Promise<Owner> {
    const internal = await findProject(server.db, "internal");
    const user = await createUser(server.db, internal!, { primaryEmail: `owner-${crypto.randomUUID()}@example.com`, primaryEmailVerified: true });
    const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, "internal"), userId: user.id });
    return { id: user.id, personalTeamId: user.selected_team_id!, accessToken: tokens.access_token };
  }

  /** A team of the internal project; `admins` also get `team_admin`. */
  async function team(members: Owner[], admins: Owner[] = []): Promise<string> {
    const { id } = await server.db
      .insertInto("teams")
      .values({ project_id: "internal", display_name: "Team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const member of [...members, ...admins]) {
      await server.db.insertInto("team_members").values({ project_id: "internal", team_id: id, user_id: member.id, display_name: null, profile_image_url: null }).execute();
    }
    for (const admin of admins) {
      await server.db.insertInto("team_member_permissions").values({ project_id: "internal", team_id: id, user_id: admin.id, permission_id: "team_admin" }).execute();
    }
    return id;
  }

  const KEY_HEADER = {
    client: ["x-stack-publishable-client-key", WELL_KNOWN_DEV_KEYS.publishableClientKey],
    server: ["x-stack-secret-server-key", WELL_KNOWN_DEV_KEYS.secretServerKey],
    admin: ["x-stack-super-secret-admin-key", WELL_KNOWN_DEV_KEYS.superSecretAdminKey],
  } as const;

  function transfer(access: "client" | "server" | "admin", user: Owner | null, body: Record<string, unknown>) {
    const [name, key] = KEY_HEADER[access];
    const headers: Record<string, string> = { "x-stack-project-id": "internal", "x-stack-access-type": access, [name]: key };
    if (user) headers["x-stack-access-token"] = user.accessToken;
    return api(server.url, "/internal/projects/transfer", { headers, body });
  }

  async function projectOf(owner: Owner, teamId: string): Promise<string> {
    const created = await api(server.url, "/internal/projects", {
      access: "client",
      headers: { "x-stack-access-token": owner.accessToken },
      body: { display_name: "Moving", owner_team_id: teamId },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const ownerTeamOf = async (projectId: string) => (await findProject(server.db, projectId))!.owner_team_id;

  it("moves the project for a signed-in user with any access type, answering success as the string \"true\"", async () => {
    const user = await internalUser();
    const projectId = await projectOf(user, user.personalTeamId);
    for (const access of ["client", "server", "admin"] as const) {
      const to = await team([], [user]);
      const response = await transfer(access, user, { project_id: projectId, new_team_id: to });
      expect(response.status).toBe(200);
      expect(response.text).toBe('{"success":"true"}');
      expect(await ownerTeamOf(projectId)).toBe(to);
    }
  });

  it("needs a signed-in user", async () => {
    const user = await internalUser();
    const projectId = await projectOf(user, user.personalTeamId);
    const response = await transfer("client", null, { project_id: projectId, new_team_id: user.personalTeamId });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });

  it("requires team_admin in the current owner team, checked before the new team (401 TEAM_PERMISSION_REQUIRED)", async () => {
    const admin = await internalUser();
    const member = await internalUser();
    const owners = await team([member], [admin]);
    const projectId = await projectOf(admin, owners);
    // A plain member of the owner team, moving it to a team they are not in either: the permission is reported.
    const stranger = await team([]);
    const response = await transfer("client", member, { project_id: projectId, new_team_id: stranger });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      code: "TEAM_PERMISSION_REQUIRED",
      error: `User ${member.id} does not have permission team_admin in team ${owners}.`,
      details: { team_id: owners, user_id: member.id, permission_id: "team_admin" },
    });
    expect(await ownerTeamOf(projectId)).toBe(owners);
  });

  it("requires membership of the new team (404 TEAM_MEMBERSHIP_NOT_FOUND)", async () => {
    const user = await internalUser();
    const projectId = await projectOf(user, user.personalTeamId);
    const elsewhere = await team([await internalUser()]);
    const response = await transfer("admin", user, { project_id: projectId, new_team_id: elsewhere });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: elsewhere, user_id: user.id } });
    expect(await ownerTeamOf(projectId)).toBe(user.personalTeamId);
  });

  it("reports a project that does not exist", async () => {
    const user = await internalUser();
    const missing = crypto.randomUUID();
    const response = await transfer("client", user, { project_id: missing, new_team_id: user.personalTeamId });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "PROJECT_NOT_FOUND", details: { project_id: missing } });
  });
});
