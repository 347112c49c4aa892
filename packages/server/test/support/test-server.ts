import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { connectDatabase, type Db } from "../../src/db/connect.js";
import { readEnv, type Env } from "../../src/env.js";
import { createLogger } from "../../src/log.js";
import { startServer, type RunningServer } from "../../src/server.js";
import { StartupError } from "../../src/startup-error.js";
import { createKeySet } from "../../src/services/api-keys.js";
import { createProject, NEW_PROJECT_CONFIG_OVERRIDE } from "../../src/services/projects.js";
import { installOneConnectionCheck, takeOneConnectionRefusals } from "./one-connection-check.js";

export interface TestServer extends RunningServer {
  env: Env;
}

/**
 * Starts the real server on a free port with a database of its own: a fresh PGlite data dir, or a fresh database on
 * the real PostgreSQL named by LATCHKEY_TEST_DATABASE_URL (either removed again on close).
 */
export async function startTestServer(vars: Record<string, string> = {}, options: { sameDatabaseAs?: TestServer } = {}): Promise<TestServer> {
  if (options.sameDatabaseAs) {
    // A second server process on the same database; its owner closes the database.
    return startListening(vars, options.sameDatabaseAs.db);
  }
  const { db, dropDatabase } = await testDatabase();
  let server: TestServer;
  try {
    server = await startListening(vars, db);
  } catch (error) {
    await db.destroy();
    await dropDatabase();
    throw error;
  }
  return {
    ...server,
    async close() {
      await server.close();
      await db.destroy();
      await dropDatabase();
      const refusals = takeOneConnectionRefusals();
      if (refusals.length > 0) throw new Error(`${refusals.length} quer${refusals.length === 1 ? "y" : "ies"} from inside a transaction on the database, not on the transaction:\n${refusals.join("\n\n")}`);
    },
  };
}

/**
 * The server on `db`. A port reachablePublicUrl() found free can be taken by another process before the server
 * listens on it (another test file's server asks the kernel for any free port meanwhile): then it starts again on
 * another one, as a person would.
 */
async function startListening(vars: Record<string, string>, db: Db): Promise<TestServer> {
  for (let attempt = 1; ; attempt++) {
    // Every JSON answer is checked against its declared schema (http/route.ts), so the API reference stays true.
    const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent", LATCHKEY_CHECK_RESPONSES: "true", ...vars });
    try {
      return { ...(await startServer(env, createLogger(env.logLevel), { db })), env };
    } catch (error) {
      const portTaken = error instanceof StartupError && (error.cause as { code?: string } | undefined)?.code === "EADDRINUSE" && REACHABLE in vars;
      if (!portTaken || attempt === 5) throw error;
      vars = { ...vars, ...(await reachablePublicUrl()) };
    }
  }
}

/** Production mode (dev mode's conveniences off), for tests of what a deployed server does. */
export const PRODUCTION: Record<string, string> = { LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "x".repeat(40) };

/**
 * Variables that make the server's public URL the address it will listen on, for tests that follow the URLs
 * it hands out (profile images, mailed links) as a browser would; by default it is `http://localhost:0`.
 */
export async function reachablePublicUrl(): Promise<Record<string, string>> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  // Marked (a symbol key, which spreads copy and readEnv never sees) so that startTestServer may pick another.
  return { LATCHKEY_PORT: String(port), LATCHKEY_PUBLIC_URL: `http://127.0.0.1:${port}`, [REACHABLE]: "yes" } as Record<string, string>;
}

const REACHABLE = Symbol("a port reachablePublicUrl found free");

async function testDatabase(): Promise<{ db: Db; dropDatabase: () => Promise<void> }> {
  if (process.env.LATCHKEY_TEST_DB !== "postgres") return pgliteDatabase();
  installOneConnectionCheck();
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("LATCHKEY_TEST_DATABASE_URL must be set to run the suite against PostgreSQL");
  const name = `latchkey_test_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the run's migrated template (test-databases.global.ts) when there is one.
  const template = process.env.LATCHKEY_TEST_POSTGRES_TEMPLATE;
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    db: await connectDatabase({ kind: "postgres", url: url.toString() }),
    dropDatabase: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

// A test's database holds a few dozen rows: 8 MB of shared buffers instead of the server's 32 MB. PostgreSQL zeroes
// them at every start, and the suite starts ~200 PGlite databases (each page of fresh WebAssembly memory is a page
// fault, dear on a virtual machine): the 24 sample files of bench/node-suite.mjs took 61 s of CPU instead of 69 s
// (median of 3 A/B runs). Only the cache's size differs; servers started as processes (npm start) keep the default.
const TEST_SHARED_BUFFERS = "8MB";

/**
 * A PGlite data dir of its own, filled from the migrated template vitest's global setup made for this run
 * (test-databases.global.ts) the way a new production data dir is (db/pglite-template.ts): initdb and the migrations
 * cost seconds per test file. In memory (tmpfs) where the machine has one. Without the setup (another runner), an
 * in-memory PGlite that makes its database itself.
 */
async function pgliteDatabase(): Promise<{ db: Db; dropDatabase: () => Promise<void> }> {
  const runDir = process.env.LATCHKEY_TEST_PGLITE_RUN_DIR;
  if (!runDir) return { db: await connectDatabase({ kind: "pglite", dataDir: undefined, sharedBuffers: TEST_SHARED_BUFFERS }), dropDatabase: async () => {} };
  const dataDir = mkdtempSync(join(runDir, "data-"));
  const dropDatabase = async () => rmSync(dataDir, { recursive: true, force: true });
  try {
    return { db: await connectDatabase({ kind: "pglite", dataDir, template: { templatesDir: runDir, announce: () => {} }, sharedBuffers: TEST_SHARED_BUFFERS }), dropDatabase };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}

export interface TestProject {
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
  /** x-stack headers for the given access type. */
  headers(access: "client" | "server" | "admin"): Record<string, string>;
}

/**
 * A fresh project with a full key set, so each test works on its own project. Projects are created by
 * signed-in internal-project users (issue 3); until then tests create them through the service.
 */
export async function createTestProject(server: TestServer, displayName = "Test project", options: { configOverride?: Record<string, unknown> } = {}): Promise<TestProject> {
  const project = await createProject(server.db, { displayName, description: null, ...options });
  const keys = await createKeySet(server.db, project.id, {
    description: "test keys",
    expiresAt: null,
    kinds: ["publishableClientKey", "secretServerKey", "superSecretAdminKey"],
  });
  const result = {
    projectId: project.id,
    publishableClientKey: keys.publishable_client_key!,
    secretServerKey: keys.secret_server_key!,
    superSecretAdminKey: keys.super_secret_admin_key!,
  };
  return {
    ...result,
    headers(access) {
      const key = { client: ["x-stack-publishable-client-key", result.publishableClientKey], server: ["x-stack-secret-server-key", result.secretServerKey], admin: ["x-stack-super-secret-admin-key", result.superSecretAdminKey] }[access];
      return { "x-stack-project-id": project.id, "x-stack-access-type": access, [key[0]!]: key[1]! };
    },
  };
}

/**
 * A new project's config without the protocol's default team roles (`team_admin`, `team_member` and their
 * default grants), for suites that build their own permission graph from nothing.
 */
export const CONFIG_WITHOUT_TEAM_ROLES = Object.fromEntries(Object.entries(NEW_PROJECT_CONFIG_OVERRIDE).filter(([key]) => !key.startsWith("rbac.")));
