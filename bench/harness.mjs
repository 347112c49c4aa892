// What every bench script here shares: reading options, bench/'s own dependencies, fresh PostgreSQL
// databases, starting and stopping the servers it drives (each in a process group of its own, so only
// what the bench started is ever signalled), free ports, and waiting for a server to answer.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const benchDir = fileURLToPath(new URL(".", import.meta.url));
export const root = join(benchDir, "..");

/**
 * `--name value`, `--name=value` or the environment variable, as text or as a bounded number; a bad value
 * exits 2 with a line naming the option.
 */
export function optionReader(argv = process.argv.slice(2), program = "bench") {
  const text = (name, env) => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i >= 0) return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : argv[i + 1];
    return env ? process.env[env] : undefined;
  };
  const number = (name, env, fallback, { min = 1, max }) => {
    const raw = text(name, env);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      console.error(`${program}: --${name}${env ? ` (or ${env})` : ""} must be a number from ${min} to ${max}, got ${raw}`);
      process.exit(2);
    }
    return value;
  };
  return { text, number };
}

/** BENCH_DATABASE_URL, an admin URL of a PostgreSQL on this machine (the bench creates and drops databases there). */
export function adminDatabaseUrl(program = "bench") {
  const url = process.env.BENCH_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname)) {
    console.error(`${program}: BENCH_DATABASE_URL must name a PostgreSQL on this machine, got ${new URL(url).host}`);
    process.exit(2);
  }
  return url;
}

export const databaseUrlOf = (adminUrl, database) => Object.assign(new URL(adminUrl), { pathname: `/${database}` }).href;

/** Better Auth, pg and the load generator live in bench/'s own package, outside the root workspace. */
export function installBenchDependencies() {
  if (!existsSync(join(root, "node_modules/tsx/package.json"))) {
    console.error("bench: run `npm ci` at the repository root first (Latchkey is started with its tsx).");
    process.exit(2);
  }
  const installed = ["better-auth", "pg", "autocannon", "quickjs-emscripten"].every((name) => existsSync(join(benchDir, "node_modules", name, "package.json")));
  if (installed) return;
  console.log("bench: installing bench/ dependencies (npm ci --prefix bench)…");
  const result = spawnSync("npm", ["ci", "--prefix", benchDir, "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A pg client (bench/'s own `pg`) connected to `url` for `task`, closed after it. */
export async function withClient(url, task) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** Drops and creates each database; returns PostgreSQL's version. */
export function recreateDatabases(adminUrl, names) {
  return withClient(adminUrl, async (admin) => {
    for (const name of names) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    return (await admin.query("show server_version")).rows[0].server_version;
  });
}

export function dropDatabases(adminUrl, names) {
  return withClient(adminUrl, async (admin) => {
    for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
  });
}

/**
 * The processes a bench started. `onUnexpectedExit(message)` is called when one exits before `stopAll()`.
 */
export function childProcesses(onUnexpectedExit) {
  const children = [];
  return {
    /** Starts `command` in a process group of its own; returns its entry (`pid` is also the group's id). */
    start(name, command, args, env) {
      const output = [];
      const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
      const keep = (chunk) => {
        output.push(chunk.toString());
        if (output.length > 50) output.shift();
      };
      child.stdout.on("data", keep);
      child.stderr.on("data", keep);
      const entry = { name, child, pid: child.pid, output, exited: false, stopping: false };
      entry.exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
      entry.exit.then(({ code, signal }) => {
        entry.exited = true;
        if (!entry.stopping) onUnexpectedExit(`${name} exited (${signal ?? code}) during the bench:\n${output.join("").slice(-3000)}`);
      });
      children.push(entry);
      return entry;
    },
    /** SIGTERM to each group this bench started, SIGKILL after 15 s. */
    stopAll() {
      return Promise.all(children.map((entry) => stopChild(entry)));
    },
  };
}

async function stopChild(entry) {
  if (entry.exited) return;
  entry.stopping = true;
  // Only the process groups this bench started.
  try {
    process.kill(-entry.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-entry.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, 15_000);
  await entry.exit;
  clearTimeout(timer);
}

/**
 * The environment of a Latchkey server on 127.0.0.1:`port` and the PostgreSQL database `databaseUrl`.
 * Processes behind one load balancer share one `publicUrl` (the issuer of their access tokens).
 */
export function latchkeyEnv({ databaseUrl, port, publicUrl = `http://127.0.0.1:${port}` }) {
  return {
    LATCHKEY_DATABASE_URL: databaseUrl,
    LATCHKEY_PORT: String(port),
    LATCHKEY_HOST: "127.0.0.1",
    LATCHKEY_PUBLIC_URL: publicUrl,
    LATCHKEY_LOG_LEVEL: "warn",
  };
}

/**
 * The command that runs Latchkey from its sources in one process (tsx as an import hook rather than its CLI,
 * which would add a parent process): `[command, args]`. `nodeArgs` go before, e.g. `--cpu-prof`, which
 * NODE_OPTIONS does not allow.
 */
export function sourceCommand(file, nodeArgs = []) {
  return [process.execPath, [...nodeArgs, "--conditions=source", "--import", "tsx", file]];
}

/** Node options for the Latchkey server from BENCH_LATCHKEY_NODE_ARGS (e.g. `--cpu-prof`, `--heapsnapshot-signal=SIGUSR2`). */
const LATCHKEY_NODE_ARGS = (process.env.BENCH_LATCHKEY_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);

/**
 * The command that runs the Latchkey server of the checkout at `serverRoot` as `npm start` runs it: the bundled
 * server (packages/server/dist/main.js), built first when a source is newer (scripts/builds.mjs). With
 * BENCH_LATCHKEY_FROM_SOURCE=1, its TypeScript sources through tsx instead — not what ships: tsx keeps function
 * names, which costs every closure made per request a defineProperty call (~10 % of a cached read's CPU).
 */
export async function serverCommand(serverRoot = root, nodeArgs = LATCHKEY_NODE_ARGS) {
  if (process.env.BENCH_LATCHKEY_FROM_SOURCE === "1") return sourceCommand(join(serverRoot, "packages/server/src/main.ts"), nodeArgs);
  const { BUILDS, staleness } = await import(join(serverRoot, "scripts/builds.mjs"));
  const server = BUILDS.find((build) => build.outputs.includes("packages/server/dist/main.js"));
  const reason = staleness(serverRoot, server);
  if (reason) {
    console.error(`Building ${server.name} in ${serverRoot}: ${reason}…`);
    const [command, ...args] = server.command;
    const built = spawnSync(command, args, { cwd: serverRoot, stdio: ["ignore", "inherit", "inherit"] });
    if (built.status !== 0) throw new Error(`Could not build ${server.name} in ${serverRoot}.`);
  }
  return [process.execPath, [...nodeArgs, join(serverRoot, "packages/server/dist/main.js")]];
}

/** Starts this checkout's Latchkey server (serverCommand), as every bench here does. */
export async function startLatchkey(children, name, { databaseUrl, port, publicUrl, nodeArgs = LATCHKEY_NODE_ARGS }) {
  const [command, args] = await serverCommand(root, nodeArgs);
  return children.start(name, command, args, latchkeyEnv({ databaseUrl, port, publicUrl }));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitUntilUp(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer 200 within 60 s`);
}

