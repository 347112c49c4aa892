import { mkdirSync, readdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { Kysely, PostgresDialect } from "kysely";
import type pg from "pg";
import { StartupError } from "../startup-error.js";
import type { ChangeSource } from "./change-feed.js";
import { acquireDataDirLock, DATA_DIR_LOCK_FILE, type DataDirLock } from "./data-dir-lock.js";
import { PGliteDialect, pgliteStartParams } from "./pglite-dialect.js";
import { preparedName } from "./prepared-statements.js";
import { fillFromTemplate, TEMPLATE_COPY_MARKER, type TemplateOptions } from "./pglite-template.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; /** the pool's most connections (LATCHKEY_DATABASE_POOL_SIZE); 10 */ poolSize?: number }
  | {
      kind: "pglite";
      dataDir: string | undefined /* undefined: in memory */;
      snapshot?: Blob /* a dumped data dir to start from */;
      /** An empty data dir starts as a copy of the migrated template (pglite-template.ts). */
      template?: TemplateOptions;
      /** PostgreSQL's shared_buffers (e.g. "8MB"); 32 MB by default (pglite-dialect.ts). */
      sharedBuffers?: string;
    };

let pgModule: Promise<{ pg: typeof pg; QuickConnectClient: typeof pg.Client }> | undefined;

/**
 * The PostgreSQL client, loaded when a PostgreSQL database is first connected (change-feed.ts too): a server on
 * embedded PGlite never loads it (~50 ms of a start's CPU; issue 35).
 */
export function loadPg(): Promise<{ pg: typeof pg; QuickConnectClient: typeof pg.Client }> {
  return (pgModule ??= import("pg").then(({ default: pg }) => {
    // Dates come back as Date; bigints (counts) as numbers since ours never exceed 2^53.
    pg.types.setTypeParser(20, (value: string) => Number(value));
    /**
     * A pooled connection gives up connecting after 3 s, whatever the pool waits for a free one (`connectDatabase`),
     * and runs marked statements as named ones (db/prepared-statements.ts).
     */
    class QuickConnectClient extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis: 3_000 });
        const query = this.query.bind(this) as (...args: unknown[]) => unknown;
        // Kysely's driver calls `query(text, values)`.
        this.query = ((...args: unknown[]) => {
          const [text, values] = args;
          const name = args.length === 2 && typeof text === "string" && Array.isArray(values) ? preparedName(text) : undefined;
          return name ? query({ name, text, values }) : query(...args);
        }) as typeof this.query;
      }
    }
    return { pg, QuickConnectClient };
  }));
}

const changeSources = new WeakMap<Db, ChangeSource>();
const pools = new WeakMap<Db, pg.Pool>();

export async function connectDatabase(target: DatabaseTarget): Promise<Db> {
  let db: Db;
  if (target.kind === "postgres") {
    const { pg, QuickConnectClient } = await loadPg();
    // A database that does not complete a new connection within 3 s is treated as down (503), not waited on. All
    // the pool's connections (ten by default) busy is load, not an outage: a request waits up to 10 s for one (Prisma's pool_timeout, which
    // the reference uses), since one that gave up after 3 s was answered "try again" after its first commit
    // (bench/shutdown-drain.mjs: 3 sign-ups of 30 at 256 connections).
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10, connectionTimeoutMillis: 10_000, Client: QuickConnectClient });
    // An idle connection the server closed (a restart, a failover, an administrator) is dropped by the
    // pool and replaced on the next query; unhandled, its 'error' event would end the process.
    pool.on("error", () => {});
    // A connection lost while a request holds it (the database stopped mid-request) is also an 'error'
    // event on that client, which the pool listens for only on idle clients; the request's query fails
    // with it anyway (answered 503, http/database-unavailable.ts), so the event itself is not needed.
    pool.on("connect", (client) => client.on("error", () => {}));
    markConnectFailures(pool);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    changeSources.set(db, { kind: "postgres", url: target.url });
    pools.set(db, pool);
  } else {
    const lock = target.dataDir ? lockDataDir(target.dataDir) : undefined;
    // An empty data dir is filled from the template while PGlite loads its WebAssembly and its own files (~0.2 s
    // of CPU that needs no data dir); it opens the database once the files are there (FilledNodeFS).
    const filled = target.dataDir && target.template ? fillDataDir(target.dataDir, target.template, lock) : undefined;
    filled?.catch(() => {}); // awaited below; a failure is not unhandled meanwhile
    let pglite: PGlite;
    try {
      pglite = await PGlite.create({
        ...(target.dataDir ? (filled ? { fs: new FilledNodeFS(target.dataDir, filled) } : { dataDir: target.dataDir }) : {}),
        ...(target.snapshot ? { loadDataDir: target.snapshot } : {}),
        startParams: pgliteStartParams(target.sharedBuffers),
      });
    } catch (error) {
      // A data dir that could not be filled says so (and fillDataDir released the lock).
      await filled;
      lock?.release();
      if (!target.dataDir) throw error;
      throw new StartupError(
        `The data dir ${target.dataDir} is not a usable Latchkey database (${describe(error)}). ` +
          `Point LATCHKEY_DATA_DIR at an empty directory or at one an earlier Latchkey created.`,
      );
    }
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite, () => lock?.release()) });
    changeSources.set(db, { kind: "pglite", pglite });
  }
  return db;
}

function lockDataDir(dataDir: string): DataDirLock {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new StartupError(`Cannot create the data dir ${dataDir} (${describe(error)}). Check LATCHKEY_DATA_DIR and its permissions.`);
  }
  // PGlite would create its database among whatever files are there; like initdb, refuse a directory
  // that holds something else (a mistyped path pointing at a project folder).
  const entries = readdirSync(dataDir).filter((name) => name !== DATA_DIR_LOCK_FILE);
  // A copy of the template cut short is ours too, and is redone (pglite-template.ts).
  if (entries.length > 0 && !entries.includes("PG_VERSION") && !entries.includes(TEMPLATE_COPY_MARKER)) {
    throw new StartupError(`The data dir ${dataDir} holds other files and no Latchkey database. Point LATCHKEY_DATA_DIR at an empty or new directory.`);
  }
  return acquireDataDirLock(dataDir);
}

/** PGlite's file system for a data dir (NodeFS) that waits for the data dir's files before PGlite opens it. */
class FilledNodeFS extends NodeFS {
  constructor(
    dataDir: string,
    private readonly filled: Promise<unknown>,
  ) {
    super(dataDir);
  }
  override async initialSyncFs(): Promise<void> {
    await this.filled;
    return super.initialSyncFs();
  }
}

async function fillDataDir(dataDir: string, template: TemplateOptions, lock: DataDirLock | undefined): Promise<void> {
  try {
    await fillFromTemplate(dataDir, template);
  } catch (error) {
    lock?.release();
    throw new StartupError(`Cannot write the data dir ${dataDir} (${describe(error)}). Check LATCHKEY_DATA_DIR, its permissions and the free space.`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where the change notifications of a database opened by `connectDatabase` can be listened to. */
export function changeSourceOf(db: Db): ChangeSource {
  const source = changeSources.get(db);
  if (!source) throw new Error("changeSourceOf: the database was not opened by connectDatabase");
  return source;
}

const connectFailures = new WeakSet<object>();

/**
 * Whether an error is the pool failing to give a connection: the server unreachable, refusing it (whatever its
 * code: 55000 for a database closed to connections, 53300 too many, 57P03 starting up, 28P01 a changed password…),
 * or none free in time. Such a failure says nothing about the request (http/database-unavailable.ts: 503).
 */
export function isConnectFailure(error: unknown): boolean {
  return typeof error === "object" && error !== null && connectFailures.has(error);
}

/** Notes every error of the pool's `connect` (Kysely's promise form and pg-pool's own callback form). */
function markConnectFailures(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: (error: unknown, client?: unknown, done?: unknown) => void) => Promise<unknown> | void;
  const mark = (error: unknown) => {
    const marked = typeof error === "object" && error !== null ? error : new Error(String(error));
    connectFailures.add(marked);
    return marked;
  };
  (pool as { connect: unknown }).connect = (callback?: (error: unknown, client?: unknown, done?: unknown) => void) => {
    if (callback) return connect((error, client, done) => callback(error ? mark(error) : error, client, done));
    return (connect() as Promise<unknown>).catch((error: unknown) => {
      throw mark(error);
    });
  };
}

/** The connection pool of a PostgreSQL database opened by `connectDatabase` (for `/metrics`); none for PGlite. */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}
