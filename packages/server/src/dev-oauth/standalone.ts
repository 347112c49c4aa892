import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { devOidcRequestListener } from "./listener.js";
import { createDevOidcProvider } from "./provider.js";

/**
 * The development OpenID provider as a process of its own, for test suites (LATCHKEY_OAUTH_DEV_ISSUER):
 *
 *   node --conditions=source --import tsx packages/server/src/dev-oauth/standalone.ts [--port 0] [--host 127.0.0.1]
 *
 * Prints `listening <issuer URL>` on stdout once it answers, and exits on SIGTERM or SIGINT (and, with
 * `--exit-with-stdin`, when its standard input closes, so a test runner that dies takes it along).
 * Options fall back to LATCHKEY_OAUTH_DEV_PORT, LATCHKEY_OAUTH_DEV_HOST and LATCHKEY_OAUTH_DEV_CLIENT_SECRET.
 */
const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.LATCHKEY_OAUTH_DEV_PORT ?? "0" },
    host: { type: "string", default: process.env.LATCHKEY_OAUTH_DEV_HOST ?? "127.0.0.1" },
    "client-secret": { type: "string", default: process.env.LATCHKEY_OAUTH_DEV_CLIENT_SECRET ?? "MOCK-SERVER-SECRET" },
    "exit-with-stdin": { type: "boolean", default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number (got ${JSON.stringify(values.port)})`);
  process.exit(2);
}

const server = createServer();
// The issuer names the port, which is known only once listening (--port 0 picks a free one).
await new Promise<void>((resolve, reject) => {
  server.once("error", reject);
  server.listen(port, values.host, () => resolve());
});
const address = server.address();
const boundPort = typeof address === "object" && address ? address.port : port;
const host = values.host.includes(":") ? `[${values.host}]` : values.host;
const issuer = `http://${host}:${boundPort}`;

const onError = (error: unknown) => console.error("development OpenID provider failed:", error);
const provider = await createDevOidcProvider({ issuer, clientSecret: values["client-secret"], onServerError: onError });
const listener = devOidcRequestListener(provider, { onError });
server.on("request", (req, res) => void listener(req, res));

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
if (values["exit-with-stdin"]) {
  process.stdin.on("end", stop).on("close", stop).resume();
}

process.stdout.write(`listening ${issuer}\n`);
