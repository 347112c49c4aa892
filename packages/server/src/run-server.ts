import type { Env } from "./env.js";
import { createLogger } from "./log.js";
import { startServer } from "./server.js";

/**
 * Runs the server in this process until SIGTERM or SIGINT: `npm start` (main.ts) and the packaged
 * `latchkey-server start` (cli.ts) both come here, so the two print and stop alike.
 */
export async function runServer(env: Env): Promise<void> {
  const log = createLogger(env.logLevel);
  const server = await startServer(env, log);

  const storage = env.databaseUrl ? `PostgreSQL (${new URL(env.databaseUrl).host})` : `embedded PGlite in ${env.dataDir}`;
  const lines = [
    "",
    `Latchkey is running${env.devMode ? " in dev mode" : ""}.`,
    `  API:        ${env.publicUrl}/api/v1`,
    `  Dashboard:  ${env.publicUrl}/dashboard/`,
    `  Storage:    ${storage}`,
    `  Project id: internal`,
  ];
  if (env.devMode) {
    if (env.seedKeys.publishableClientKey) lines.push(`  Publishable client key:  ${env.seedKeys.publishableClientKey}`);
    if (env.seedKeys.secretServerKey) lines.push(`  Secret server key:       ${env.seedKeys.secretServerKey}`);
    if (env.seedKeys.superSecretAdminKey) lines.push(`  Super secret admin key:  ${env.seedKeys.superSecretAdminKey}`);
  }
  console.log(lines.join("\n") + "\n");

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      log.info({ signal }, "shutting down");
      server.close().then(
        () => process.exit(0),
        (error) => {
          log.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}
