import pg from "pg";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase, type Db } from "../src/db/connect.js";
import { createKeySet } from "../src/services/api-keys.js";
import { recordFailedAttempt } from "../src/services/auth-throttle.js";
import { createProject } from "../src/services/projects.js";
import { api, type ApiResponse } from "./support/api.js";
import { createDatabaseStatement, killServerProcesses, runServerProcess, waitUntilServing, type ServerProcess } from "./support/server-process.js";
import { PRODUCTION } from "./support/test-server.js";

// Issue 30 §3: across two server processes, 16 of 16 parallel wrong passwords were checked against the hash. Two
// real processes on one PostgreSQL database here (PGlite has one process per data dir); each counts the hashes it
// checks in `latchkey_password_hashes_total`. The account is past its threshold and its block has just passed, as
// an attacker pacing by Retry-After finds it: one attempt may be checked, and its failure blocks the account for a
// minute, so the count does not depend on how fast each request reaches the limit. (The first five of a fresh
// account, held at the check: auth-throttle-bursts.test.ts.)
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const METRICS_TOKEN = "metrics-token-for-the-throttle-test";
let databaseName: string | undefined;
let db: Db | undefined;

afterAll(async () => {
  killServerProcesses();
  await db?.destroy();
  if (!databaseName) return;
  const admin = new pg.Client({ connectionString: process.env.LATCHKEY_TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
});

async function freshDatabase(): Promise<string> {
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL!;
  databaseName = `latchkey_throttle_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(createDatabaseStatement(databaseName));
  await admin.end();
  return Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
}

/** Password hashes this process has checked, from its `/metrics`. */
async function hashesChecked(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  const line = (await response.text()).split("\n").find((l) => l.startsWith('latchkey_password_hashes_total{algorithm="argon2",operation="verify"}'));
  return Number(line?.split(" ").at(-1) ?? 0);
}

describe.skipIf(!onPostgres)("32 parallel wrong passwords through two server processes", () => {
  it("check one against the hash, on both processes together, once the account's block has passed", async () => {
    const databaseUrl = await freshDatabase();
    const env = { ...PRODUCTION, LATCHKEY_DATABASE_URL: databaseUrl, LATCHKEY_METRICS_TOKEN: METRICS_TOKEN };
    const servers = [runServerProcess(env), runServerProcess(env)];
    await Promise.all(servers.map((server) => waitUntilServing(server)));

    db = await connectDatabase({ kind: "postgres", url: databaseUrl });
    const project = await createProject(db, { displayName: "Throttle", description: null, configOverride: { "auth.password.allowSignIn": true } });
    const keys = await createKeySet(db, project.id, { description: "test", expiresAt: null, kinds: ["publishableClientKey"] });
    const headers = { "x-stack-project-id": project.id, "x-stack-access-type": "client", "x-stack-publishable-client-key": keys.publishable_client_key! };
    const address = `user-${crypto.randomUUID()}@example.com`;
    const signIn = (server: ServerProcess, password: string): Promise<ApiResponse> =>
      api(server.url, "/auth/password/sign-in", { method: "POST", headers, body: { email: address, password } });
    const signedUp = await api(servers[0]!.url, "/auth/password/sign-up", { method: "POST", headers, body: { email: address, password: "correct horse battery" } });
    expect(signedUp.status, signedUp.text).toBe(200);

    // Ten failures on record, and the wait they called for over.
    for (let i = 0; i < 10; i++) await recordFailedAttempt(db, { kind: "password", projectId: project.id, account: address });
    await sql`update auth_throttles set blocked_until = now()`.execute(db);

    const before = (await hashesChecked(servers[0]!)) + (await hashesChecked(servers[1]!));
    const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => signIn(servers[i % 2]!, `wrong ${i}`)));
    const after = (await hashesChecked(servers[0]!)) + (await hashesChecked(servers[1]!));

    expect(after - before).toBe(1);
    expect(answers.filter((answer) => answer.body?.code === "EMAIL_PASSWORD_MISMATCH")).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status === 429)) expect(refused.text).toMatch(/^Too many failed attempts\. Please try again in \d+ seconds?\.$/);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(31);
  }, 180_000);
});
