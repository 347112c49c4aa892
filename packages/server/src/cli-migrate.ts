import { connectDatabase } from "./db/connect.js";
import { migrate, migrationFiles } from "./db/migrate.js";
import { readEnvOrExit } from "./env.js";

/**
 * `latchkey-server migrate`: applies the migrations and exits, for a deploy step before the new servers start.
 * Several at once on one database apply each migration once: they queue on migrate()'s advisory lock and
 * the later ones find nothing left to do.
 */
export async function migrateCommand(): Promise<void> {
  const env = readEnvOrExit();
  const where = env.databaseUrl ? `PostgreSQL ${new URL(env.databaseUrl).host}${new URL(env.databaseUrl).pathname}` : `embedded PGlite in ${env.dataDir}`;
  const db = await connectDatabase(env.databaseUrl ? { kind: "postgres", url: env.databaseUrl } : { kind: "pglite", dataDir: env.dataDir });
  try {
    const applied = await migrate(db);
    console.log(
      applied.length > 0
        ? `Applied ${applied.length} migration(s) to ${where}: ${applied.length > 3 ? `${applied[0]} … ${applied.at(-1)}` : applied.join(", ")}`
        : `${where} is up to date (${migrationFiles().length} migrations applied).`,
    );
  } finally {
    await db.destroy();
  }
}
