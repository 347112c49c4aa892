import { connectDatabase } from "./db/connect.js";
import { migrate } from "./db/migrate.js";
import { readEnvOrExit } from "./env.js";
import { rotateSigningKeys } from "./services/signing-keys.js";

/**
 * `npm run rotate-signing-keys`: rotates the access-token signing keys now (services/signing-keys.ts), e.g.
 * when a key may have leaked. Uses the same configuration as the server; running servers pick the new keys
 * up through the database's change notifications.
 */
async function main() {
  const env = readEnvOrExit();
  const db = await connectDatabase(env.databaseUrl ? { kind: "postgres", url: env.databaseUrl } : { kind: "pglite", dataDir: env.dataDir });
  try {
    await migrate(db);
    await rotateSigningKeys(db, env);
    console.log("Rotated the access-token signing keys: the next key now signs, and a new next key is published.");
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
