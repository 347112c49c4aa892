import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// The server in a child process: bundled from the current sources once for the run (server-bundle.global.ts), as
// `npm start` runs it, or else from its sources (`node --conditions=source --import tsx src/main.ts`, as
// `npm run start --workspace @latchkey/server` does). Not through the `tsx` command: it relays signals to a second
// process and SIGKILLs it when that does not acknowledge within 30 ms, which a busy machine misses (exit 143 instead
// of a clean shutdown).
const serverDir = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];
// Each vitest worker running beside others (the PGlite and PostgreSQL projects) gets its own range of ports.
const workerSlot = Number(process.env.VITEST_POOL_ID ?? 0) % 10;
let nextPort = 20_000 + workerSlot * 1000 + Math.floor(Math.random() * 200) * 4;

export function runServerProcess(env: Record<string, string>): ServerProcess {
  const port = String(nextPort++);
  const bundle = process.env.LATCHKEY_TEST_SERVER_BUNDLE;
  const child = spawn(process.execPath, bundle ? [bundle] : ["--conditions=source", "--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? "", LATCHKEY_PORT: port, LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "warn", ...testRunLibrary(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/**
 * The run's bundled entry `name` (cli, standalone: the CLI, the dev OpenID provider; server-bundle.global.ts), when
 * there is one; else the caller runs it from its sources.
 */
export function bundledEntry(name: "cli" | "standalone"): string | undefined {
  const main = process.env.LATCHKEY_TEST_SERVER_BUNDLE;
  return main ? main.replace(/main\.js$/, `${name}.js`) : undefined;
}

/** The email sandbox's library script built once for the run (email-library.global.ts), so no process builds its own. */
function testRunLibrary(): Record<string, string> {
  const file = process.env.LATCHKEY_TEST_EMAIL_LIBRARY;
  return file ? { LATCHKEY_TEST_EMAIL_LIBRARY: file } : {};
}

/**
 * The statement that creates database `name` as a copy of the run's migrated template (test-databases.global.ts)
 * when there is one: for tests whose server processes need a PostgreSQL database of their own, not an empty one
 * (a first start on an empty database is process.test.ts's and cli.test.ts's). A copy takes well under a second;
 * a process that migrates an empty one took 4–5 s of a loaded machine.
 */
export function createDatabaseStatement(name: string): string {
  const template = process.env.LATCHKEY_TEST_POSTGRES_TEMPLATE;
  return template ? `create database ${name} template ${template}` : `create database ${name}`;
}

/** Kills every process started here (for afterAll). */
export function killServerProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}

// A cold start compiles the TypeScript sources and boots the database; on two busy cores (the whole suite
// running beside it) that has taken more than 30 s, so each start gets 90 s.
export async function waitUntilServing(server: ServerProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      if ((await fetch(server.url + "/api/v1")).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

/** The command lines of the processes whose parent is `pid` (Linux /proc). */
export function childCommands(pid: number): string[] {
  const commands: string[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      if (parent === pid) commands.push(readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // ended meanwhile
    }
  }
  return commands;
}
