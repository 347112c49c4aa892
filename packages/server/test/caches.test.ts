import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// The pipeline serves projects, keys, sessions and user records from per-process caches (src/cache/).
// These tests check what a user of two server processes on one database would: every change, made
// through either process or straight in the database, is what the next answer shows.

let first: TestServer;
let second: TestServer;
let project: TestProject;

beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({}, { sameDatabaseAs: first });
  project = await createTestProject(first);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

interface Session {
  userId: string;
  access_token: string;
  refresh_token: string;
}

async function signUp(): Promise<Session> {
  const response = await api(first.url, "/auth/password/sign-up", {
    method: "POST",
    headers: project.headers("client"),
    body: { email: `cache-${crypto.randomUUID()}@example.com`, password: "correct horse battery" },
  });
  expect(response.status).toBe(200);
  return { userId: response.body.user_id, access_token: response.body.access_token, refresh_token: response.body.refresh_token };
}

const me = (server: TestServer, session: Session) =>
  api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": session.access_token } });

const refresh = (server: TestServer, session: Session) =>
  api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": session.refresh_token } });

/**
 * Another process learns of a change when PostgreSQL delivers the notification, a moment after the
 * writer's commit; polls until `done` holds, for at most two seconds.
 */
async function eventually(request: () => Promise<ApiResponse>, done: (response: ApiResponse) => boolean): Promise<ApiResponse> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const response = await request();
    if (done(response) || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the process that made a change", () => {
  test("answers the next request with it: profile update, then /users/me", async () => {
    const session = await signUp();
    expect((await me(first, session)).body.display_name).toBeNull(); // now cached
    const update = await api(first.url, "/users/me", {
      method: "PATCH",
      headers: { ...project.headers("client"), "x-stack-access-token": session.access_token },
      body: { display_name: "Ada" },
    });
    expect(update.status).toBe(200);
    expect((await me(first, session)).body.display_name).toBe("Ada");
  });

  test("refuses a deleted user's token on the very next request", async () => {
    const session = await signUp();
    expect((await me(first, session)).status).toBe(200);
    const deleted = await api(first.url, `/users/${session.userId}`, { method: "DELETE", headers: project.headers("server") });
    expect(deleted.status).toBe(200);
    const after = await me(first, session);
    expect(after.status).toBe(400);
    expect(after.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  test("refuses a revoked key on the very next request", async () => {
    const created = await api(first.url, "/internal/api-keys", {
      method: "POST",
      headers: project.headers("admin"),
      body: { description: "short-lived", expires_at_millis: Date.now() + 3_600_000, has_publishable_client_key: true, has_secret_server_key: false, has_super_secret_admin_key: false },
    });
    expect(created.status).toBe(200);
    const headers = { "x-stack-project-id": project.projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": created.body.publishable_client_key };
    expect((await api(first.url, "/projects/current", { headers })).status).toBe(200);
    const revoked = await api(first.url, `/internal/api-keys/${created.body.id}`, { method: "PATCH", headers: project.headers("admin"), body: { revoked: true } });
    expect(revoked.status).toBe(200);
    const after = await api(first.url, "/projects/current", { headers });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });

  test("refuses a signed-out session's refresh token on the very next request", async () => {
    const session = await signUp();
    expect((await refresh(first, session)).status).toBe(200); // session now cached
    const signOut = await api(first.url, "/auth/sessions/current", {
      method: "DELETE",
      headers: { ...project.headers("client"), "x-stack-access-token": session.access_token },
    });
    expect(signOut.status).toBe(200);
    const after = await refresh(first, session);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("another process on the same database", () => {
  test("stops accepting a user deleted through the first", async () => {
    const session = await signUp();
    expect((await me(second, session)).status).toBe(200); // cached in the second process
    expect((await api(first.url, `/users/${session.userId}`, { method: "DELETE", headers: project.headers("server") })).status).toBe(200);
    const after = await eventually(() => me(second, session), (r) => r.status !== 200);
    expect(after.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  test("sees a new display name and stops refreshing a revoked session", async () => {
    const session = await signUp();
    expect((await me(second, session)).body.display_name).toBeNull();
    expect((await refresh(second, session)).status).toBe(200);
    await api(first.url, `/users/${session.userId}`, { method: "PATCH", headers: project.headers("server"), body: { display_name: "Grace" } });
    expect((await eventually(() => me(second, session), (r) => r.body.display_name === "Grace")).body.display_name).toBe("Grace");
    await api(first.url, "/auth/sessions/current", { method: "DELETE", headers: { ...project.headers("client"), "x-stack-access-token": session.access_token } });
    expect((await eventually(() => refresh(second, session), (r) => r.status !== 200)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  test("refuses a key revoked through the first", async () => {
    const created = await api(first.url, "/internal/api-keys", {
      method: "POST",
      headers: project.headers("admin"),
      body: { description: "revoked elsewhere", expires_at_millis: Date.now() + 3_600_000, has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: false },
    });
    const headers = { "x-stack-project-id": project.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": created.body.secret_server_key };
    expect((await api(second.url, "/users", { headers })).status).toBe(200);
    await api(first.url, `/internal/api-keys/${created.body.id}`, { method: "PATCH", headers: project.headers("admin"), body: { revoked: true } });
    expect((await eventually(() => api(second.url, "/users", { headers }), (r) => r.status !== 200)).body.code).toBe("INVALID_SECRET_SERVER_KEY");
  });
});

describe("a change made straight in the database (a hand-run UPDATE, a cascade)", () => {
  test("reaches /users/me: the triggers announce it, not the code that wrote it", async () => {
    const session = await signUp();
    expect((await me(first, session)).body.display_name).toBeNull();
    await sql`update users set display_name = 'Set by hand' where id = ${session.userId}`.execute(first.db);
    expect((await eventually(() => me(first, session), (r) => r.body.display_name === "Set by hand")).body.display_name).toBe("Set by hand");
  });

  test("a renamed selected team shows in /users/me", async () => {
    const session = await signUp();
    const team = await first.db
      .insertInto("teams")
      .values({ project_id: project.projectId, display_name: "Team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await first.db.insertInto("team_members").values({ project_id: project.projectId, team_id: team.id, user_id: session.userId, display_name: null, profile_image_url: null }).execute();
    await api(first.url, `/users/${session.userId}`, { method: "PATCH", headers: project.headers("server"), body: { selected_team_id: team.id } });
    const before = await me(first, session);
    expect(before.body.selected_team.display_name).toBe("Team");
    await sql`update teams set display_name = 'Renamed by hand' where id = ${team.id}`.execute(first.db);
    const after = await eventually(() => me(first, session), (r) => r.body.selected_team?.display_name === "Renamed by hand");
    expect(after.body.selected_team.display_name).toBe("Renamed by hand");
  });

  test("an email verified by hand shows in the next access token", async () => {
    const session = await signUp();
    expect((await refresh(first, session)).status).toBe(200);
    await sql`update contact_channels set is_verified = true where user_id = ${session.userId}`.execute(first.db);
    const claims = (r: ApiResponse) => JSON.parse(Buffer.from(String(r.body.access_token).split(".")[1]!, "base64url").toString());
    const after = await eventually(() => refresh(first, session), (r) => r.status === 200 && claims(r).email_verified === true);
    expect(claims(after).email_verified).toBe(true);
  });
});

describe.runIf(process.env.LATCHKEY_TEST_DB === "postgres")("when the listening connection is lost", () => {
  test("answers from the database meanwhile, and caches again once it is back", async () => {
    const session = await signUp();
    expect((await me(first, session)).status).toBe(200);
    // Ends every LISTEN connection on this database: both processes lose their feed.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`.execute(first.db);
    // The processes notice the closed socket at once (a link that dies silently is caught by the feed's
    // heartbeat within seconds instead; either way nothing is cached until notifications flow again).
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sql`update users set display_name = 'While deaf' where id = ${session.userId}`.execute(first.db);
    // Whatever the feed's state, the answer is the database's: no stale value is ever served.
    expect((await me(first, session)).body.display_name).toBe("While deaf");
    // Back listening (within the reconnect delay), changes are seen again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await me(first, session)).body.display_name).toBe("While deaf");
    await sql`update users set display_name = 'Heard again' where id = ${session.userId}`.execute(first.db);
    expect((await eventually(() => me(first, session), (r) => r.body.display_name === "Heard again")).body.display_name).toBe("Heard again");
  });
});
