import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type Db } from "../src/db/connect.js";
import { migrationFiles } from "../src/db/migrate.js";
import { hashPassword } from "../src/crypto/passwords.js";
import { hashSecret, randomSecret } from "../src/crypto/secrets.js";
import { readEnv } from "../src/env.js";
import { createLogger } from "../src/log.js";
import { startServer } from "../src/server.js";
import { createProject } from "../src/services/projects.js";
import { createUser } from "../src/services/users.js";
import { freshPostgresDatabase, me, refresh, signIn, signUp } from "./support/production-database.js";
import { PRODUCTION, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 34, production guide, "Upgrading": a database made by the previous release's migrations, with data in it,
// is upgraded in place by the current server's start (or `latchkey-server migrate`), and everything in it keeps
// working. There are no release tags yet: the previous release is the last commit before migration 0038 (which
// changed how API keys are stored), so the upgrade carries old-format keys, users, passwords and sessions across
// every migration since. Its migrations are read from git history (`git show`); a clone without that history
// (a shallow one) skips the test, saying so.
const PREVIOUS_RELEASE = "667c9f0";
const MIGRATIONS = "packages/server/src/db/migrations";
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const git = (...args: string[]) => execFileSync("git", args, { cwd: repository, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });

function previousMigrations(): { name: string; script: string }[] | undefined {
  try {
    const names = git("ls-tree", "--name-only", `${PREVIOUS_RELEASE}:${MIGRATIONS}`).split("\n").filter((name) => name.endsWith(".sql")).sort();
    return names.map((name) => ({ name, script: git("show", `${PREVIOUS_RELEASE}:${MIGRATIONS}/${name}`) }));
  } catch {
    return undefined;
  }
}
const previous = previousMigrations();
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

/** What the previous release's `migrate` did: each script in its own transaction, recorded in schema_migrations. */
async function applyPreviousRelease(db: Db): Promise<void> {
  await sql`create table schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(db);
  for (const { name, script } of previous!) {
    await db.transaction().execute(async (trx) => {
      await sql.raw(script).execute(trx);
      await sql`insert into schema_migrations (name) values (${name})`.execute(trx);
    });
  }
}

const PASSWORD = "a password from last year";
let database: { db: Db; url?: string; drop(): Promise<void> };
let server: TestServer;
let project: TestProject;
let old: { userId: string; email: string; refreshToken: string };

beforeAll(async () => {
  if (!previous) return;
  if (onPostgres) {
    const fresh = await freshPostgresDatabase("latchkey_upgrade");
    database = { db: await connectDatabase({ kind: "postgres", url: fresh.url }), url: fresh.url, drop: fresh.drop };
  } else {
    database = { db: await connectDatabase({ kind: "pglite", dataDir: undefined }), drop: async () => {} };
  }
  const { db } = database;
  await applyPreviousRelease(db);

  // Data as the previous release stored it: a project, a key set known only by its hashes (before 0038), a user
  // with a password, and a signed-in session.
  const row = await createProject(db, { displayName: "Made before the upgrade", description: null });
  const keys = { publishableClientKey: `pck_${randomSecret()}`, secretServerKey: `ssk_${randomSecret()}`, superSecretAdminKey: `sak_${randomSecret()}` };
  await sql`insert into api_key_sets (project_id, description, expires_at, publishable_client_key_hash, publishable_client_key_last_four,
      secret_server_key_hash, secret_server_key_last_four, super_secret_admin_key_hash, super_secret_admin_key_last_four)
    values (${row.id}, ${"keys from the previous release"}, ${null}, ${hashSecret(keys.publishableClientKey)}, ${keys.publishableClientKey.slice(-4)},
      ${hashSecret(keys.secretServerKey)}, ${keys.secretServerKey.slice(-4)}, ${hashSecret(keys.superSecretAdminKey)}, ${keys.superSecretAdminKey.slice(-4)})`.execute(db);
  const email = `upgraded-${crypto.randomUUID()}@example.com`;
  const user = await createUser(db, row, { primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true, passwordHash: await hashPassword(PASSWORD) });
  const refreshToken = randomSecret();
  await sql`insert into sessions (project_id, user_id, refresh_token_hash, expires_at) values (${row.id}, ${user.id}, ${hashSecret(refreshToken)}, ${new Date(Date.now() + 86_400_000)})`.execute(db);
  old = { userId: user.id, email, refreshToken };
  project = {
    projectId: row.id,
    ...keys,
    headers(access) {
      const [name, value] = { client: ["x-stack-publishable-client-key", keys.publishableClientKey], server: ["x-stack-secret-server-key", keys.secretServerKey], admin: ["x-stack-super-secret-admin-key", keys.superSecretAdminKey] }[access];
      return { "x-stack-project-id": row.id, "x-stack-access-type": access, [name!]: value! };
    },
  };

  // The current release starts on it, in production mode, as `latchkey-server start` would.
  const env = readEnv({ ...PRODUCTION, ...(database.url ? { LATCHKEY_DATABASE_URL: database.url } : {}), LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent", LATCHKEY_CHECK_RESPONSES: "true" });
  server = { ...(await startServer(env, createLogger(env.logLevel), { db })), env };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await database?.db.destroy();
  await database?.drop();
});

describe.skipIf(!previous)(`upgrading a database made by the previous release (${PREVIOUS_RELEASE})`, () => {
  it("applies every migration the previous release did not have, and is ready", async () => {
    const applied = (await sql<{ name: string }>`select name from schema_migrations order by name`.execute(server.db)).rows.map((r) => r.name);
    expect(applied).toEqual(migrationFiles());
    expect(migrationFiles().filter((name) => !previous!.some((p) => p.name === name))).toContain("0038_publishable_keys_readable.sql");
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  });

  it("keeps the API keys, the user's password and the session from before the upgrade", async () => {
    // The old secret server key reads the user; the old publishable key signs them in with their old password.
    const read = await fetch(`${server.url}/api/v1/users/${old.userId}`, { headers: project.headers("server") });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: old.userId, primary_email: old.email, has_password: true });
    expect(await signIn(server, project, old.email, PASSWORD)).toMatchObject({ status: 200, body: { user_id: old.userId } });
    const refreshed = await refresh(server, project, old.refreshToken);
    expect(refreshed.status).toBe(200);
    expect(await me(server, project, refreshed.body.access_token)).toMatchObject({ status: 200, body: { id: old.userId, primary_email: old.email } });
  });

  it("takes new sign-ups beside the old data", async () => {
    const { status, body } = await signUp(server, project, `after-upgrade-${crypto.randomUUID()}@example.com`, PASSWORD);
    expect(status).toBe(200);
    expect(await me(server, project, body.access_token)).toMatchObject({ status: 200 });
  });
});

if (!previous) {
  describe("upgrading a database made by the previous release", () => {
    it.skip(`needs the git history of ${PREVIOUS_RELEASE} (a full clone) to read its migrations`, () => {});
  });
}
