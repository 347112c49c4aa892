import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { changeSourceOf, connectDatabase } from "../../src/db/connect.js";
import { migrate } from "../../src/db/migrate.js";

/**
 * vitest global setup: the migrated, empty database every test server starts from, made once for the run.
 * - PGlite: one database dumped to a file; each test server on PGlite loads it (test-server.ts) instead of running
 *   initdb and the migrations again, which took 4–5 s per test file on two cores.
 * - PostgreSQL (when LATCHKEY_TEST_DATABASE_URL is set): one migrated database, the template each test server's
 *   database is created from (`create database … template …`), instead of running every migration again in each
 *   (4–5 s per test server on a loaded machine; a copy of the template takes well under one).
 * The test servers still run `migrate` at start, as production does; on these it finds nothing to do.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const [removeSnapshot, dropTemplate] = await Promise.all([pgliteSnapshot(), postgresTemplate()]);
  return async () => {
    await removeSnapshot();
    await dropTemplate();
  };
}

async function pgliteSnapshot(): Promise<() => Promise<void>> {
  const path = join(tmpdir(), `latchkey-pglite-snapshot-${process.pid}.tar`);
  const db = await connectDatabase({ kind: "pglite", dataDir: undefined });
  try {
    await migrate(db);
    const source = changeSourceOf(db);
    if (source.kind !== "pglite") throw new Error("expected a PGlite database");
    const dump = await source.pglite.dumpDataDir("none");
    await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
  process.env.LATCHKEY_TEST_PGLITE_SNAPSHOT = path;
  return () => rm(path, { force: true });
}

async function postgresTemplate(): Promise<() => Promise<void>> {
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL;
  if (!adminUrl) return async () => {};
  const name = `latchkey_test_template_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name}`);
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Closed before any copy is made: PostgreSQL copies a template only while no one is connected to it.
  const db = await connectDatabase({ kind: "postgres", url: url.toString() });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
  process.env.LATCHKEY_TEST_POSTGRES_TEMPLATE = name;
  return async () => {
    await admin(`drop database if exists ${name} with (force)`);
  };
}
