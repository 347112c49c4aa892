import { connectDatabase } from "./db/connect.js";
import { migrate } from "./db/migrate.js";
import { readEnvOrExit } from "./env.js";
import { rotateVaultKeys } from "./services/data-vault.js";

/**
 * `npm run rotate-vault-keys`: after LATCHKEY_SERVER_SECRET changed (the old one moved to
 * LATCHKEY_PREVIOUS_SERVER_SECRETS), wraps every data vault row's data key under the new secret, so the old
 * one can then be dropped. Uses the same configuration as the server; safe to run while servers serve.
 */
async function main() {
  const env = readEnvOrExit();
  const db = await connectDatabase(env.databaseUrl ? { kind: "postgres", url: env.databaseUrl } : { kind: "pglite", dataDir: env.dataDir });
  try {
    await migrate(db);
    const { rewrapped, unopenable } = await rotateVaultKeys({ db, env });
    console.log(`Re-wrapped ${rewrapped} data vault key(s) under the current server secret.`);
    if (unopenable > 0) {
      console.log(`${unopenable} row(s) open under none of the configured secrets and were left as they are.`);
      process.exitCode = 1;
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
