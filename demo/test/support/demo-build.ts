import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The e2e tests drive the demo as `npm start` serves it, so they need its built files: the elements bundle
 * (packages/elements/dist) and the React app (demo/react/dist). `ensureDemoBuilt()` runs `npm run build:demo`
 * when an output is missing or older than a source, once: test files run in parallel workers, so the first
 * one takes a lock (an atomic mkdir) and the others wait for its build.
 */
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const outputs = ["packages/elements/dist/latchkey.iife.js", "packages/elements/dist/latchkey-sign-in.iife.js", "packages/elements/dist/latchkey-account.js", "demo/react/dist/index.html"];
const sources = ["packages/core/src", "packages/protocol/src", "packages/elements/src", "packages/react/src", "demo/react", "demo/demo-project.js", "demo/demo.css"];
const lock = join(tmpdir(), `latchkey-demo-build-${Buffer.from(repository).toString("base64url").slice(-24)}.lock`);
const LOCK_STALE_MS = 5 * 60_000;

export async function ensureDemoBuilt(): Promise<void> {
  await acquireLock();
  try {
    if (isStale()) await run("npm", ["run", "build:demo"]);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isStale(): boolean {
  const built = outputs.map((file) => mtime(join(repository, file)));
  if (built.some((time) => time === undefined)) return true;
  const newestSource = Math.max(...sources.map((path) => newest(join(repository, path))));
  return newestSource > Math.min(...(built as number[]));
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time under `path`, skipping build output and dependencies. */
function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "dist" || entry === "node_modules") continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

async function acquireLock(): Promise<void> {
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // A lock left by a run that was killed mid-build must not block every later run.
    const age = Date.now() - (mtime(lock) ?? Date.now());
    if (age > LOCK_STALE_MS || Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repository, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${output}`))));
  });
}
