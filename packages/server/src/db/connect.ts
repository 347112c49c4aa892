import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { PGliteDialect } from "./pglite-dialect.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string | undefined /* undefined: in memory */ };

// Dates come back as Date; bigints (counts) as numbers since ours never exceed 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

export async function connectDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  const pglite = await PGlite.create(target.dataDir ? { dataDir: target.dataDir } : {});
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}
