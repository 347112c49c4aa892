#!/usr/bin/env node
// `npm run typecheck`: TypeScript over the repository's four projects (the packages and their tests, the demo, the
// stories, the dashboard), side by side on as many cores as the machine has. Each `tsc` is one thread; one after
// the other they left a core idle for the half minute they take together (issue 35). A project's errors are printed
// whole, after its name, as it finishes; the exit code is non-zero when any project has errors.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const PROJECTS = ["tsconfig.json", "demo/tsconfig.json", "stories/tsconfig.json", "packages/dashboard/tsconfig.json"];
// typescript's `exports` name no bin/: its package.json is exported, and bin/tsc sits beside it.
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", project, "--noEmit"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ project, ok: false, output: String(error) }));
    child.on("close", (code) => resolve({ project, ok: code === 0, output }));
  });
}

const queue = [...PROJECTS];
let failed = false;
async function worker() {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const result = await check(project);
    if (!result.ok) {
      failed = true;
      process.stdout.write(`tsc -p ${result.project}: errors\n${result.output}`);
    }
  }
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), PROJECTS.length) }, worker));
process.exitCode = failed ? 1 : 0;
