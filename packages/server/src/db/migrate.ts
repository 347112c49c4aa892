import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { StartupError } from "../startup-error.js";
import type { Db } from "./connect.js";

export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
// Any fixed number shared by every Latchkey process; it names the advisory lock that serialises
// migrations when several processes start against one database at the same moment.
const MIGRATION_LOCK_KEY = 7_245_310_116;

/** The migration scripts in the order they apply (file names sort by their number). */
export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql")).sort();
}

/** The migrations this server's code expects that the database has not applied (for `/ready`). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const done = await sql<{ name: string }>`select name from schema_migrations`.execute(db);
  const applied = new Set(done.rows.map((r) => r.name));
  return migrationFiles().filter((file) => !applied.has(file));
}

/** Applies every migration not yet applied, each in its own transaction, under a session advisory lock. */
export async function migrate(db: Db): Promise<string[]> {
  const files = migrationFiles();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(conn);
      const done = await sql<{ name: string }>`select name from schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.name));
      refuseNewerDatabase(applied, files);
      const newlyApplied: string[] = [];
      for (const file of files) {
        if (applied.has(file)) continue;
        const script = readFileSync(MIGRATIONS_DIR + file, "utf8");
        await conn.transaction().execute(async (trx) => {
          await sql.raw(script).execute(trx);
          await sql`insert into schema_migrations (name) values (${file})`.execute(trx);
        });
        newlyApplied.push(file);
      }
      return newlyApplied;
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}

/**
 * A database that has applied migrations this code does not have was upgraded by a newer Latchkey: this older
 * code would run against tables it does not know (a rollback of the code without one of the database), so it
 * refuses to start, naming what the database has.
 */
function refuseNewerDatabase(applied: Set<string>, files: string[]): void {
  const known = new Set(files);
  const unknown = [...applied].filter((name) => !known.has(name)).sort();
  if (unknown.length === 0) return;
  throw new StartupError(
    `The database was migrated by a newer version of Latchkey (it has ${unknown.join(", ")}, which this version does not know): run that version or a later one, or restore a backup taken before the upgrade.`,
  );
}
