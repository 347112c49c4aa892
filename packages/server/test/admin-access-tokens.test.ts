import { StackAdminApp, StackClientApp } from "@stackframe/js";
import { InternalSession } from "@stackframe/stack-shared/dist/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAccessToken } from "../src/crypto/access-tokens.js";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { findProject, getProject } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { createUser } from "../src/services/users.js";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

// x-stack-admin-access-token: the access token of a signed-in internal-project user (the dashboard's
// session) grants admin access to the projects the user's teams own.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const call = (path: string, request?: Parameters<typeof api>[2]) => api(server.url, path, request);

interface Owner {
  id: string;
  teamId: string;
  accessToken: string;
  refreshToken: string;
}

async function internalUser(options: { isAnonymous?: boolean } = {}): Promise<Owner> {
  const internal = await findProject(server.db, "internal");
  const user = await createUser(server.db, internal!, options.isAnonymous ? { isAnonymous: true } : { primaryEmail: `owner-${crypto.randomUUID()}@example.com` });
  const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, "internal"), userId: user.id });
  return { id: user.id, teamId: user.selected_team_id!, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** An internal user and a project its personal team owns, made through the API as the dashboard does. */
async function ownerWithProject(): Promise<{ owner: Owner; projectId: string }> {
  const owner = await internalUser();
  const created = await call("/internal/projects", {
    access: "client",
    headers: { "x-stack-access-token": owner.accessToken },
    body: { display_name: "Owned", owner_team_id: owner.teamId },
  });
  expect(created.status).toBe(201);
  return { owner, projectId: created.body.id };
}

const withToken = (projectId: string, token: string, extra: Record<string, string> = {}) => ({
  headers: { "x-stack-project-id": projectId, "x-stack-access-type": "admin", "x-stack-admin-access-token": token, ...extra },
});

describe("an admin access token", () => {
  it("gives the owner admin access to the project", async () => {
    const { owner, projectId } = await ownerWithProject();
    const welcome = await call("", withToken(projectId, owner.accessToken));
    expect(welcome.text).toContain(`Authentication: Admin\n  Project: ${projectId}`);

    const read = await call("/internal/projects/current", withToken(projectId, owner.accessToken));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: projectId, owner_team_id: owner.teamId });
    const renamed = await call("/internal/projects/current", { ...withToken(projectId, owner.accessToken), method: "PATCH", body: { display_name: "Renamed" } });
    expect(renamed.body.display_name).toBe("Renamed");
  });

  it("also stands for the other keys, as the protocol's admin app sends its server and client calls with it alone", async () => {
    const { owner, projectId } = await ownerWithProject();
    const asServer = await call("", withToken(projectId, owner.accessToken, { "x-stack-access-type": "server" }));
    expect(asServer.text).toContain(`Authentication: Server\n  Project: ${projectId}`);
    const asClient = await call("/projects/current", withToken(projectId, owner.accessToken, { "x-stack-access-type": "client" }));
    expect(asClient.status).toBe(200);
    expect(asClient.body.id).toBe(projectId);
    // A key sent along is still checked.
    const wrongKey = await call("", withToken(projectId, owner.accessToken, { "x-stack-access-type": "server", "x-stack-secret-server-key": "ssk_wrong" }));
    expect(wrongKey.body.code).toBe("INVALID_SECRET_SERVER_KEY");
  });

  it("is rejected when it cannot be parsed", async () => {
    const { projectId } = await ownerWithProject();
    for (const token of ["garbage", "a.b.c", (await internalUser()).accessToken.slice(0, -4) + "AAAA"]) {
      const response = await call("", withToken(projectId, token));
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: "UNPARSABLE_ADMIN_ACCESS_TOKEN", error: "Admin access token is not parsable." });
    }
  });

  it("is rejected with its expiry once expired", async () => {
    const { owner, projectId } = await ownerWithProject();
    const twoHoursAgo = Date.now() - 7_200_000;
    const expired = await signAccessToken(
      server.env,
      { projectId: "internal", branchId: "main", userId: owner.id, refreshTokenId: crypto.randomUUID(), name: null, email: null, emailVerified: false, selectedTeamId: owner.teamId, signedUpAt: new Date(twoHoursAgo), isAnonymous: false, restrictedReason: null, requiresTotpMfa: false },
      twoHoursAgo,
    );
    const response = await call("", withToken(projectId, expired));
    expect(response.status).toBe(401);
    const expiredAt = (Math.floor(twoHoursAgo / 1000) + server.env.accessTokenLifetimeSeconds) * 1000;
    expect(response.body).toEqual({
      code: "ADMIN_ACCESS_TOKEN_EXPIRED",
      details: { expired_at_millis: expiredAt },
      error: `Admin access token has expired. Please refresh it and try again. (The access token expired at ${new Date(expiredAt).toISOString()}.)`,
    });
  });

  it("must come from the internal project", async () => {
    const project = await createTestProject(server);
    const row = await findProject(server.db, project.projectId);
    const user = await createUser(server.db, row!, { primaryEmail: "someone@example.com" });
    const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, project.projectId), userId: user.id });
    const response = await call("", withToken(project.projectId, tokens.access_token));
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN");
  });

  it("is not admin for a project its user's teams do not own", async () => {
    const { projectId } = await ownerWithProject();
    const stranger = await internalUser();
    const unowned = await createTestProject(server);
    for (const target of [projectId, unowned.projectId, "internal"]) {
      const response = await call("", withToken(target, stranger.accessToken));
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", error: "Admin access token does not have the required permissions to access this project." });
    }
  });

  it("is not admin once its user is deleted or leaves the owning team", async () => {
    const deleted = await ownerWithProject();
    await server.db.deleteFrom("users").where("id", "=", deleted.owner.id).execute();
    expect((await call("", withToken(deleted.projectId, deleted.owner.accessToken))).body.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");

    const left = await ownerWithProject();
    await server.db.deleteFrom("team_members").where("user_id", "=", left.owner.id).execute();
    expect((await call("", withToken(left.projectId, left.owner.accessToken))).body.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("of an anonymous user is not accepted", async () => {
    const anonymous = await internalUser({ isAnonymous: true });
    const { projectId } = await ownerWithProject();
    expect((await call("", withToken(projectId, anonymous.accessToken))).body.code).toBe("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  });

  it("is read before the project is looked up, like the access token; its ownership is checked after", async () => {
    const owner = await internalUser();
    const missing = crypto.randomUUID();
    expect((await call("", withToken(missing, "garbage"))).body.code).toBe("UNPARSABLE_ADMIN_ACCESS_TOKEN");
    // A valid token for a project that does not exist: the project is missing, as the protocol reports it.
    expect((await call("", withToken(missing, owner.accessToken))).body.code).toBe("CURRENT_PROJECT_NOT_FOUND");
    // The access token comes first.
    const { projectId } = await ownerWithProject();
    const response = await call("", withToken(projectId, "garbage", { "x-stack-access-token": "garbage" }));
    expect(response.body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
  });

  it("with a super secret admin key: each credential sent must be valid", async () => {
    const project = await createTestProject(server);
    const owner = await internalUser();
    await server.db.updateTable("projects").set({ owner_team_id: owner.teamId }).where("id", "=", project.projectId).execute();

    const wrongKey = await call("", withToken(project.projectId, owner.accessToken, { "x-stack-super-secret-admin-key": "sak_wrong" }));
    expect(wrongKey.body.code).toBe("INVALID_SUPER_SECRET_ADMIN_KEY");
    const badToken = await call("", withToken(project.projectId, "garbage", { "x-stack-super-secret-admin-key": project.superSecretAdminKey }));
    expect(badToken.body.code).toBe("UNPARSABLE_ADMIN_ACCESS_TOKEN");
    const both = await call("", withToken(project.projectId, owner.accessToken, { "x-stack-super-secret-admin-key": project.superSecretAdminKey }));
    expect(both.text).toContain("Authentication: Admin");
  });

  it("may come with the owner's own internal session, which is nobody in the project", async () => {
    const { owner, projectId } = await ownerWithProject();
    const response = await call("", withToken(projectId, owner.accessToken, { "x-stack-access-token": owner.accessToken }));
    expect(response.text).toContain(`Authentication: Admin\n  Project: ${projectId}\n  User: None`);

    const someoneElse = await internalUser();
    const foreign = await call("", withToken(projectId, owner.accessToken, { "x-stack-access-token": someoneElse.accessToken }));
    expect(foreign.body).toMatchObject({ code: "INVALID_PROJECT_FOR_ACCESS_TOKEN", details: { expected_project_id: projectId, actual_project_id: "internal" } });
  });

  it("lets the owner create the project's keys, which then work", async () => {
    const { owner, projectId } = await ownerWithProject();
    const created = await call("/internal/api-keys", {
      ...withToken(projectId, owner.accessToken),
      body: { description: "dashboard", expires_at_millis: Date.now() + 3_600_000, has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: false },
    });
    expect(created.status).toBe(200);
    const client = await call("", { headers: { "x-stack-project-id": projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": created.body.publishable_client_key } });
    expect(client.text).toContain("Authentication: Client");
  });
});

describe("the published Stack SDK with an owner's session", () => {
  // The SDK's internal-project user (`user.createProject`, `user.listOwnedProjects`) and owned admin apps run
  // on the user's InternalSession; it is built here from a session made by the service, since this suite does
  // not depend on the sign-in routes.
  const sessionOf = (owner: Owner) =>
    new InternalSession({ accessToken: owner.accessToken, refreshToken: owner.refreshToken, refreshAccessTokenCallback: async () => null });
  const internalApp = () =>
    new StackClientApp({ baseUrl: server.url, projectId: "internal", publishableClientKey: WELL_KNOWN_DEV_KEYS.publishableClientKey, tokenStore: "memory", redirectMethod: "none" });

  interface OwnedProject {
    id: string;
    displayName: string;
    ownerTeamId: string | null;
    app: InstanceType<typeof StackAdminApp>;
    transfer(user: unknown, newTeamId: string): Promise<void>;
  }
  // The methods `CurrentInternalUser.createProject` / `.listOwnedProjects` delegate to.
  type InternalUserCalls = {
    _createProject(session: InternalSession, project: { displayName: string; teamId: string; description?: string }): Promise<OwnedProject>;
    _listOwnedProjects(session: InternalSession): Promise<OwnedProject[]>;
  };

  it("creates and lists owned projects, and administers one through StackAdminApp", async () => {
    const owner = await internalUser();
    const session = sessionOf(owner);
    const app = internalApp() as unknown as InternalUserCalls;

    const created = await app._createProject(session, { displayName: "From the SDK", teamId: owner.teamId, description: "made by @stackframe/js" });
    expect(created.displayName).toBe("From the SDK");
    expect(created.ownerTeamId).toBe(owner.teamId);
    expect((await app._listOwnedProjects(session)).map((p) => p.id)).toEqual([created.id]);

    const admin = new StackAdminApp({ baseUrl: server.url, projectId: created.id, projectOwnerSession: session, tokenStore: "memory", redirectMethod: "none" });
    const project = await admin.getProject();
    expect(project.id).toBe(created.id);
    expect(project.displayName).toBe("From the SDK");
    expect(project.description).toBe("made by @stackframe/js");
    expect(project.config.credentialEnabled).toBe(true);

    await project.update({ displayName: "Renamed by the SDK" });
    expect((await admin.getProject()).displayName).toBe("Renamed by the SDK");

    const keys = await admin.createInternalApiKey({
      description: "from the SDK",
      expiresAt: new Date(Date.now() + 3_600_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.publishableClientKey).toMatch(/^pck_/);
    expect((await admin.listInternalApiKeys()).map((k) => k.id)).toEqual([keys.id]);
  });

  it("transfers an owned project to another team of the user", async () => {
    const owner = await internalUser();
    const session = sessionOf(owner);
    const app = internalApp() as unknown as InternalUserCalls;
    const team = await server.db
      .insertInto("teams")
      .values({ project_id: "internal", display_name: "Company", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await server.db.insertInto("team_members").values({ project_id: "internal", team_id: team.id, user_id: owner.id, display_name: null, profile_image_url: null }).execute();

    const created = await app._createProject(session, { displayName: "To move", teamId: owner.teamId });
    // `project.transfer(user, teamId)` sends the user's internal session along with the admin access token.
    await created.transfer({ _internalSession: session }, team.id);
    expect((await created.app.getProject()).ownerTeamId).toBe(team.id);
  });
});
