import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { ChangeSource } from "./change-feed.js";
import { PGliteDialect } from "./pglite-dialect.js";
import type { Database } from "./schema.js";
import { WriteTrackingPlugin } from "./write-tracking.js";

export type Db = Kysely<Database>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string | undefined /* undefined: in memory */; snapshot?: Blob /* a dumped data dir to start from */ };

// Dates come back as Date; bigints (counts) as numbers since ours never exceed 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

const changeSources = new WeakMap<Db, ChangeSource>();

export async function connectDatabase(target: DatabaseTarget): Promise<Db> {
  const plugins = [new WriteTrackingPlugin()];
  let db: Db;
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the server closed (a restart, a failover, an administrator) is dropped by the
    // pool and replaced on the next query; unhandled, its 'error' event would end the process.
    pool.on("error", () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
    changeSources.set(db, { kind: "postgres", url: target.url });
  } else {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    const pglite = await PGlite.create({ ...(target.dataDir ? { dataDir: target.dataDir } : {}), ...(target.snapshot ? { loadDataDir: target.snapshot } : {}) });
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), plugins });
    changeSources.set(db, { kind: "pglite", pglite });
  }
  return db;
}

/** Where the change notifications of a database opened by `connectDatabase` can be listened to. */
export function changeSourceOf(db: Db): ChangeSource {
  const source = changeSources.get(db);
  if (!source) throw new Error("changeSourceOf: the database was not opened by connectDatabase");
  return source;
}
