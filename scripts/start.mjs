#!/usr/bin/env node
// `npm start`: builds what changed since the last start — the elements bundle, the React demo, the admin dashboard, the server —
// then runs the built server (packages/server/dist/main.js) in this process. Nothing changed: no build at
// all, and the server answers in about a second (issue 17, cold start; figures in the README). Every build
// prints a line before and after, so a first start on a fresh clone is never silent. The builds read sources
// only, never each other's outputs: the stale ones run side by side (issue 35: a fresh clone's four, one after
// another, took 31 s of its 35 s first start).
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BUILDS, dateOutputs, staleness } from "./builds.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

function run([command, ...args]) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${[command, ...args].join(" ")} failed (${signal ?? `exit code ${code}`})`))));
  });
}

// Each source tree is walked once for all the builds that read it.
const newest = new Map();
const stale = BUILDS.map((build) => ({ build, reason: staleness(root, build, newest) })).filter(({ reason }) => reason);
const failures = await Promise.all(
  stale.map(async ({ build, reason }) => {
    const startedAt = Date.now();
    console.log(`Building ${build.name}: ${reason}…`);
    try {
      await Promise.all((build.parallel ?? [build.command]).map(run));
    } catch (error) {
      return `Could not build ${build.name}: ${error.message}.`;
    }
    dateOutputs(root, build, startedAt);
    console.log(`  ${build.name} done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    return undefined;
  }),
);
if (failures.some(Boolean)) {
  console.error(`${failures.filter(Boolean).join("\n")} The lines above say why; \`npm ci\` restores missing dependencies.`);
  process.exit(1);
}

// The builds' phase, for the server's start-phase lines (packages/server/src/start-phases.ts; LATCHKEY_LOG_LEVEL=debug).
const cpu = process.cpuUsage();
const checked = { at: performance.now(), cpu: (cpu.user + cpu.system) / 1000 };
globalThis[Symbol.for("latchkey.startPhases")] = { phases: [{ phase: stale.length ? `builds checked and ${stale.length} run` : "builds checked", ms: checked.at, cpuMs: checked.cpu }], last: checked };

// Runs the server's main(); from here on the process is the server's (its signals, its exit codes). From the
// server's folder, as `npm run start --workspace @latchkey/server` always ran: a relative LATCHKEY_DATA_DIR,
// and the default ./.latchkey, stay where earlier starts put the data.
process.chdir(`${root}packages/server`);
// Stack traces name the TypeScript sources rather than lines of the bundle (~20 ms more at start: the map has no
// copy of the sources).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(`${root}packages/server/dist/main.js`).href);
