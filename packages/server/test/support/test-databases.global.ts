import { accessSync, chmodSync, chownSync, constants, cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connectDatabase } from "../../src/db/connect.js";
import { migrate } from "../../src/db/migrate.js";
import { ensureTemplate, pgliteTemplatePath } from "../../src/db/pglite-template.js";

/**
 * vitest global setup: the migrated, empty database every test server starts from, made once for the run.
 * - PGlite: one migrated data dir, in memory (tmpfs) where the machine has one; each test server on PGlite copies it
 *   into a data dir of its own (test-server.ts) instead of running initdb and the migrations again, which took 4–5 s
 *   per test file on two cores. (It loaded a dump of it into PGlite's in-memory file system before: ~0.5 s more CPU
 *   per test server than opening a copied data dir, and no faster to query; issue 35.)
 * - PostgreSQL (when the "server (PostgreSQL)" project runs): one migrated database, the template each test server's
 *   database is created from (`create database … template …`), instead of running every migration again in each
 *   (4–5 s per test server on a loaded machine; a copy of the template takes well under one). If it cannot be made,
 *   each test server migrates its own database, as before. Where PostgreSQL runs on this machine and its data
 *   directory's owner can be given a directory (root, as CI runs), the template lives in a tablespace in memory
 *   (/dev/shm), and so every database copied from it: on the disk's ext4 a copy and its drop spent ~0.5 s of
 *   kernel CPU creating and removing its ~1,000 files, ~70 s a run (perf, issue 35); in memory ~0.1 s.
 * The test servers still run `migrate` at start, as production does; on these it finds nothing to do.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const onPostgres = project.vitest.projects.some((selected) => selected.name === "server (PostgreSQL)");
  // One after the other: PGlite's WebAssembly holds the event loop for seconds at a time, longer than a pg connection
  // waits to be set up (3 s), so made side by side the template's connections timed out on a loaded machine.
  const removePgliteTemplate = await pgliteTemplate();
  const dropTemplate = onPostgres ? await postgresTemplate() : async () => {};
  return async () => {
    await removePgliteTemplate();
    await dropTemplate();
  };
}

const RUN_DIR_PREFIX = "latchkey-test-pglite-";

async function pgliteTemplate(): Promise<() => Promise<void>> {
  const parent = memoryBackedDir();
  removeStaleRunDirs(parent);
  const runDir = mkdtempSync(join(parent, `${RUN_DIR_PREFIX}${process.pid}-`));
  // The machine's template (made by `npm ci`'s postinstall, or now, as `npm start` would) copied under the name the
  // test servers' data dirs look for (pglite-template.ts): a copy of its 40 MB takes a fraction of a second, making one
  // (initdb and every migration in WebAssembly) ~5–8 s of CPU while every test waits. Made in place when there is none.
  const installed = await ensureTemplate({ announce: () => {} });
  if (installed) copyTemplate(installed, pgliteTemplatePath(runDir));
  if (await ensureTemplate({ templatesDir: runDir, announce: () => {} })) process.env.LATCHKEY_TEST_PGLITE_RUN_DIR = runDir;
  return async () => rmSync(runDir, { recursive: true, force: true });
}

/** Copied under another name and renamed when whole: a copy cut short is never taken for the template. */
function copyTemplate(from: string, to: string): void {
  const copying = `${to}.copying`;
  try {
    cpSync(from, copying, { recursive: true });
    renameSync(copying, to);
  } catch (error) {
    console.warn(`The run makes its own PGlite template (${error instanceof Error ? error.message : String(error)}).`);
    rmSync(copying, { recursive: true, force: true });
  }
}

/** /dev/shm where the machine has a writable one (the data dirs are then memory, as PGlite's own was), else tmp. */
function memoryBackedDir(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

/** Data dirs of earlier runs that were stopped before their teardown (their process is gone): memory, on tmpfs. */
function removeStaleRunDirs(parent: string): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(RUN_DIR_PREFIX)) continue;
    const pid = Number(name.slice(RUN_DIR_PREFIX.length).split("-")[0]);
    if (pid > 0 && pid !== process.pid && !processExists(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
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
  const drop = () => admin(`drop database if exists ${name} with (force)`);
  let tablespace: MemoryTablespace | null = null;
  const dropAll = async () => {
    await drop();
    await tablespace?.drop();
  };
  try {
    await dropStaleTemplates(adminUrl);
    await drop();
    tablespace = await memoryTablespace(adminUrl);
    await admin(tablespace ? `create database ${name} tablespace ${tablespace.name}` : `create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // Closed before any copy is made: PostgreSQL copies a template only while no one is connected to it.
    const db = await connectDatabase({ kind: "postgres", url: url.toString() });
    try {
      await migrate(db);
    } finally {
      await db.destroy();
    }
  } catch (error) {
    console.warn(`No migrated template database (${error instanceof Error ? error.message : String(error)}): each PostgreSQL test server migrates its own.`);
    await dropAll().catch(() => {});
    return async () => {};
  }
  process.env.LATCHKEY_TEST_POSTGRES_TEMPLATE = name;
  return dropAll;
}

const TABLESPACE_PREFIX = "latchkey_test_memory_";

interface MemoryTablespace {
  name: string;
  /** Once every database in it is gone (the teardown runs after the last test server closed its own). */
  drop(): Promise<void>;
}

/**
 * A tablespace in /dev/shm for the run's PostgreSQL databases, when PostgreSQL's data directory is on this machine
 * and a directory can be handed to its owner; null otherwise (another machine, no tmpfs, not root), and the
 * databases stay where PostgreSQL keeps its own.
 */
async function memoryTablespace(adminUrl: string): Promise<MemoryTablespace | null> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const name = `${TABLESPACE_PREFIX}${process.pid}`;
  const dir = `/dev/shm/latchkey-test-postgres-${process.pid}`;
  try {
    const { rows } = await client.query<{ setting: string }>("select setting from pg_settings where name = 'data_directory'");
    const dataDirectory = rows[0]?.setting;
    if (!dataDirectory || memoryBackedDir() !== "/dev/shm") return null;
    const owner = statSync(dataDirectory);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
    await client.query(`create tablespace ${name} location '${dir}'`);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  } finally {
    await client.end();
  }
  return {
    name,
    async drop() {
      const dropping = new pg.Client({ connectionString: adminUrl });
      await dropping.connect();
      try {
        await dropTablespace(dropping, name);
        rmSync(dir, { recursive: true, force: true });
      } catch (error) {
        console.warn(`The run's memory tablespace ${name} stays (${error instanceof Error ? error.message : String(error)}); the next run drops it.`);
      } finally {
        await dropping.end();
      }
    },
  };
}

/**
 * Templates of earlier runs that were stopped before their teardown (their process is gone), and their memory
 * tablespaces with the test databases left in them (a reboot empties /dev/shm; PostgreSQL still lists them).
 */
async function dropStaleTemplates(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const stale = (name: string, prefix: string) => {
    const pid = Number(name.slice(prefix.length));
    return Number.isInteger(pid) && pid !== process.pid && !processExists(pid);
  };
  try {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'latchkey\\_test\\_template\\_%'");
    for (const { datname } of rows) {
      if (stale(datname, "latchkey_test_template_")) await client.query(`drop database if exists ${datname} with (force)`);
    }
    const spaces = await client.query<{ oid: number; spcname: string }>("select oid, spcname from pg_tablespace where spcname like 'latchkey\\_test\\_memory\\_%'");
    for (const { oid, spcname } of spaces.rows) {
      if (!stale(spcname, TABLESPACE_PREFIX)) continue;
      await dropTablespace(client, spcname, oid);
      rmSync(`/dev/shm/latchkey-test-postgres-${spcname.slice(TABLESPACE_PREFIX.length)}`, { recursive: true, force: true });
    }
  } finally {
    await client.end();
  }
}

/** The tablespace and any database still in it (a test server that was never closed, a run cut short). */
async function dropTablespace(client: pg.Client, name: string, oid?: number): Promise<void> {
  const spaceOid = oid ?? (await client.query<{ oid: number }>("select oid from pg_tablespace where spcname = $1", [name])).rows[0]?.oid;
  if (spaceOid === undefined) return;
  const left = await client.query<{ datname: string }>("select datname from pg_database where dattablespace = $1", [spaceOid]);
  for (const { datname } of left.rows) await client.query(`drop database if exists "${datname}" with (force)`);
  await client.query(`drop tablespace if exists ${name}`);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
