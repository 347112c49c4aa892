import { spawn } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// The same builds, and the same staleness rule, as `npm start` (scripts/builds.mjs).
import { BUILDS, dateOutputs, staleness, type Build } from "../../../scripts/builds.mjs";

/**
 * Tests that drive what the server serves from built files (the demo, the elements bundles, the dashboard) build
 * what is missing or older than its sources first: each build of scripts/builds.mjs that makes one of `outputs`,
 * once even when test files run in parallel workers (the first takes a lock, an atomic mkdir, and the others
 * wait for its builds). `among` adds builds that only tests need (the Next.js app, support/next-app.ts).
 */
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const lock = join(tmpdir(), `latchkey-test-builds-${Buffer.from(repository).toString("base64url").slice(-24)}.lock`);
const LOCK_STALE_MS = 5 * 60_000;

export async function ensureBuilt(outputs: readonly string[], among: readonly Build[] = BUILDS): Promise<void> {
  const builds = among.filter((build) => build.outputs.some((output) => outputs.includes(output)));
  const unknown = outputs.filter((output) => !builds.some((build) => build.outputs.includes(output)));
  if (unknown.length > 0) throw new Error(`scripts/builds.mjs makes none of ${unknown.join(", ")}`);
  await acquireLock();
  try {
    for (const build of builds) {
      if (!staleness(repository, build)) continue;
      const startedAt = Date.now();
      await run(build.command);
      dateOutputs(repository, build, startedAt);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Runs `work` holding the builds' lock: for work that rewrites build outputs other test files read (packing the
 * client packages rebuilds their dist/), so it never overlaps a build of theirs.
 */
export async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  await acquireLock();
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function acquireLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // A lock left by a run that was killed mid-build must not block every later run.
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function run([command, ...args]: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // Without vitest's NODE_ENV=test, which would make Vite build React's development code (~250 kB more).
    const { NODE_ENV: _testMode, ...env } = process.env;
    const child = spawn(command!, args, { cwd: repository, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${output}`))));
  });
}
