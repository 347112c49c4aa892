import pg from "pg";
import { connectDatabase, type Db } from "../../src/db/connect.js";
import { readEnv, type Env } from "../../src/env.js";
import { createLogger } from "../../src/log.js";
import { startServer, type RunningServer } from "../../src/server.js";

export interface TestServer extends RunningServer {
  env: Env;
}

/**
 * Starts the real server on a free port with a database of its own: a fresh in-memory PGlite, or a fresh
 * database on the real PostgreSQL named by LATCHKEY_TEST_DATABASE_URL (dropped again on close).
 */
export async function startTestServer(vars: Record<string, string> = {}): Promise<TestServer> {
  const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent", ...vars });
  const { db, dropDatabase } = await testDatabase();
  const server = await startServer(env, createLogger(env.logLevel), { db });
  return {
    ...server,
    env,
    async close() {
      await server.close();
      await dropDatabase();
    },
  };
}

async function testDatabase(): Promise<{ db: Db; dropDatabase: () => Promise<void> }> {
  if (process.env.LATCHKEY_TEST_DB !== "postgres") {
    return { db: await connectDatabase({ kind: "pglite", dataDir: undefined }), dropDatabase: async () => {} };
  }
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("LATCHKEY_TEST_DATABASE_URL must be set to run the suite against PostgreSQL");
  const name = `latchkey_test_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
