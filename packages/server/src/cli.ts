#!/usr/bin/env node
import { StartupError } from "./startup-error.js";

/**
 * `latchkey-server`, the packaged server's command (issue 34): `npx @latchkey/server` or a global install runs
 * this, bundled into dist/package/latchkey-server.js (scripts/package.mjs). The repository's `npm start` keeps
 * running main.ts. Differences from `npm start`, both because a packaged server is what goes to production:
 * dev mode only when asked (`--dev` or LATCHKEY_DEV_MODE=true; `npm start` is in dev mode unless
 * NODE_ENV=production), and the embedded database in ./latchkey-data (a visible folder in the folder it runs
 * in) unless LATCHKEY_DATA_DIR or LATCHKEY_DATABASE_URL say otherwise.
 */
const USAGE = `Usage: latchkey-server [command] [--dev]

Commands:
  start                 run the server (the default)
  migrate               apply the database migrations and exit (for deploy pipelines)
  check                 validate the configuration, reach the database, SMTP and the public URL
  rotate-signing-keys   rotate the access-token signing keys now
  rotate-vault-keys     re-wrap the data vault's keys under the current LATCHKEY_SERVER_SECRET

Options:
  --dev                 dev mode: the well-known development keys, no secrets needed (never in production)

Configuration comes from the environment (LATCHKEY_*), as documented in the README.`;

const COMMANDS = new Set(["start", "migrate", "check", "rotate-signing-keys", "rotate-vault-keys"]);

async function main(argv: string[]): Promise<void> {
  const args = argv.filter((arg) => arg !== "--dev");
  if (args.includes("--help") || args.includes("-h") || args[0] === "help") {
    console.log(USAGE);
    return;
  }
  const command = args[0] ?? "start";
  if (!COMMANDS.has(command) || args.length > 1) {
    console.error(`latchkey-server: unknown ${COMMANDS.has(command) ? "argument" : "command"} ${JSON.stringify(COMMANDS.has(command) ? args[1] : command)}\n\n${USAGE}`);
    process.exit(2);
  }
  // The packaged defaults, written into the environment so every command (and the modules they load) reads them.
  if (argv.includes("--dev")) process.env.LATCHKEY_DEV_MODE = "true";
  process.env.LATCHKEY_DEV_MODE ??= "false";
  process.env.LATCHKEY_DATA_DIR ??= "./latchkey-data";

  switch (command) {
    case "start": {
      const [{ refuseWithoutProductionSettings }, { readEnvOrExit }, { runServer }] = await Promise.all([
        import("./cli-production.js"),
        import("./env.js"),
        import("./run-server.js"),
      ]);
      refuseWithoutProductionSettings(process.env);
      return runServer(readEnvOrExit());
    }
    case "migrate":
      return (await import("./cli-migrate.js")).migrateCommand();
    case "check":
      process.exitCode = (await (await import("./cli-check.js")).checkCommand(process.env)) ? 0 : 1;
      return;
    case "rotate-signing-keys":
      // These modules are the `npm run` scripts: importing one runs it with the environment above.
      await import("./rotate-signing-keys.js");
      return;
    case "rotate-vault-keys":
      await import("./rotate-vault-keys.js");
      return;
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
