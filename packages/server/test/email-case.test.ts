import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/db/migrate.js";
import { api, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 17: `alice@`, `ALICE@` and `Alice@Example.COM` were three accounts. Addresses are stored as typed;
// uniqueness and sign-in ignore case (migration 0020), and accounts that already differ only in case keep working.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const PASSWORD = "correct horse battery staple";
const local = () => `Alice.${crypto.randomUUID().slice(0, 8)}`;

function post(project: TestProject, path: string, body: unknown, access: "client" | "server" = "client"): Promise<ApiResponse> {
  return api(server.url, path, { method: "POST", headers: project.headers(access), body });
}
const signUp = (project: TestProject, email: string) => post(project, "/auth/password/sign-up", { email, password: PASSWORD });
const signIn = (project: TestProject, email: string) => post(project, "/auth/password/sign-in", { email, password: PASSWORD });

async function passwordProject(): Promise<TestProject> {
  const project = await createTestProject(server);
  const configured = await api(server.url, "/internal/projects/current", { method: "PATCH", headers: project.headers("admin"), body: { config: { credential_enabled: true } } });
  expect(configured.status).toBe(200);
  return project;
}

describe("sign-in addresses ignore case", () => {
  it("signs in with any spelling, keeps the address as typed, and refuses another account in other case", async () => {
    const project = await passwordProject();
    const typed = `${local()}@Example.COM`;
    const created = await signUp(project, typed);
    expect(created.status).toBe(200);

    for (const spelling of [typed.toLowerCase(), typed.toUpperCase(), typed]) {
      const answer = await signIn(project, spelling);
      expect(answer.status, spelling).toBe(200);
      expect(answer.body.user_id).toBe(created.body.user_id);
    }
    const user = await api(server.url, `/users/${created.body.user_id}`, { headers: project.headers("server") });
    expect(user.body.primary_email).toBe(typed);

    const again = await signUp(project, typed.toLowerCase());
    expect(again.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
    const byServer = await post(project, "/users", { primary_email: typed.toUpperCase(), primary_email_auth_enabled: true }, "server");
    expect(byServer.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");

    const other = await signUp(project, `${local()}@example.com`);
    const channel = await post(project, "/contact-channels", { user_id: other.body.user_id, type: "email", value: typed.toLowerCase(), used_for_auth: true, is_verified: false }, "server");
    expect(channel.body.code).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
  });

  it("still lets two users have the same address in other case when neither signs in with it", async () => {
    const project = await passwordProject();
    const address = `${local()}@example.com`;
    const first = await post(project, "/users", { primary_email: address, primary_email_auth_enabled: false }, "server");
    const second = await post(project, "/users", { primary_email: address.toUpperCase(), primary_email_auth_enabled: false }, "server");
    expect([first.status, second.status]).toEqual([201, 201]);
  });
});

describe("migration 0020 on accounts that already differ only in case", () => {
  it("keeps each signing in with its own spelling and refuses new ones", async () => {
    const project = await passwordProject();
    const address = `${local()}@example.com`;
    // The database as it was before the migration: case-sensitive uniqueness.
    await sql`drop index contact_channels_auth_value`.execute(server.db);
    await sql`alter table contact_channels drop column case_duplicate`.execute(server.db);
    await sql`create unique index contact_channels_auth_value on contact_channels (project_id, type, value) where used_for_auth`.execute(server.db);
    await sql`delete from schema_migrations where name = '0020_email_case_insensitive.sql'`.execute(server.db);
    const lower = await signUp(project, address.toLowerCase());
    const upper = await signUp(project, `${local()}@example.com`);
    expect([lower.status, upper.status]).toEqual([200, 200]);
    // What a case-sensitive server let happen (the code itself now refuses it before the database would).
    await sql`update contact_channels set value = ${address.toUpperCase()} where user_id = ${upper.body.user_id}`.execute(server.db);

    expect(await migrate(server.db)).toEqual(["0020_email_case_insensitive.sql"]);

    expect((await signIn(project, address.toLowerCase())).body.user_id).toBe(lower.body.user_id);
    expect((await signIn(project, address.toUpperCase())).body.user_id).toBe(upper.body.user_id);
    expect([lower.body.user_id, upper.body.user_id]).toContain((await signIn(project, address)).body.user_id);
    expect((await signUp(project, address)).body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
  });
});
