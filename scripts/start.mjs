#!/usr/bin/env node
// `npm start`: builds what changed since the last start — the elements bundle, the React demo, the admin dashboard, the server —
// then runs the built server (packages/server/dist/main.js) in this process. Nothing changed: no build at
// all, and the server answers in about a second (issue 17, cold start; figures in the README). Every build
// prints a line before and after, so a first start on a fresh clone is never silent. The builds read sources
// only, never each other's outputs: the stale ones run side by side (issue 35: a fresh clone's four, one after
// another, took 31 s of its 35 s first start). Only the server's own build is waited for: the others (what the
// server serves at /dashboard/, /demo/ and /static/) go on in the background at a lower CPU priority while the
// server answers /api/v1, and those paths answer "building…" until their build is done, never an older build
// (packages/server/src/ui-builds.ts). A fresh clone's API then answers after the server's build (~1 s) and its
// start, instead of after the slowest build (the dashboard's, ~25 s on two cores).
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BUILDS, dateOutputs, markBuilding, staleness } from "./builds.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
/** Where the server reads the background builds' states (UI_BUILDS in packages/server/src/ui-builds.ts). */
const UI_BUILDS = Symbol.for("latchkey.uiBuilds");
/** The background builds' niceness: the server's start and its answers come first on a busy machine. */
const BACKGROUND_PRIORITY = 10;

const children = new Set();
// A server that ends (a signal to it alone, a fatal error) takes its unfinished builds with it; their marks
// (builds.mjs) make the next start build them again.
process.on("exit", () => {
  for (const child of children) child.kill("SIGTERM");
});

function run([command, ...args], { background = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    children.add(child);
    if (background) {
      try {
        setPriority(child.pid, BACKGROUND_PRIORITY);
      } catch {
        // not allowed here, or already gone: it runs at the server's priority
      }
    }
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      children.delete(child);
      return code === 0 ? resolve() : reject(new Error(`${[command, ...args].join(" ")} failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/** Runs one stale build; resolves with an error message when it failed. */
async function build({ build, reason }, background) {
  const startedAt = Date.now();
  console.log(`Building ${build.name}: ${reason}${background ? " (in the background; the API answers meanwhile)" : ""}…`);
  markBuilding(root, build);
  try {
    await Promise.all((build.parallel ?? [build.command]).map((command) => run(command, { background })));
  } catch (error) {
    return `Could not build ${build.name}: ${error.message}.`;
  }
  dateOutputs(root, build, startedAt);
  console.log(`  ${build.name} done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  return undefined;
}

// Each source tree is walked once for all the builds that read it.
const newest = new Map();
const stale = BUILDS.map((build) => ({ build, reason: staleness(root, build, newest) })).filter(({ reason }) => reason);

// The builds the server serves from: started first, in the background. Their states are handed to the server
// before it loads, so it never serves what such a build is rewriting.
const building = new Map();
globalThis[UI_BUILDS] = building;
for (const step of stale.filter(({ build }) => build.serves)) {
  building.set(step.build.serves, { state: "building", name: step.build.name });
  void build(step, true).then((failure) => {
    if (!failure) return building.delete(step.build.serves);
    building.set(step.build.serves, { state: "failed", name: step.build.name });
    console.error(`${failure} The lines above say why (\`npm ci\` restores missing dependencies); the API keeps answering, and the paths it serves say the build failed until a start builds it.`);
  });
}

const serverBuilds = stale.filter(({ build }) => !build.serves);
const failures = await Promise.all(serverBuilds.map((step) => build(step, false)));
if (failures.some(Boolean)) {
  console.error(`${failures.filter(Boolean).join("\n")} The lines above say why; \`npm ci\` restores missing dependencies.`);
  process.exit(1);
}

// The builds' phase, for the server's start-phase lines (packages/server/src/start-phases.ts; LATCHKEY_LOG_LEVEL=debug).
const cpu = process.cpuUsage();
const checked = { at: performance.now(), cpu: (cpu.user + cpu.system) / 1000 };
const phase = stale.length === 0 ? "builds checked" : `builds checked and ${serverBuilds.length} run${building.size ? `, ${building.size} in the background` : ""}`;
globalThis[Symbol.for("latchkey.startPhases")] = { phases: [{ phase, ms: checked.at, cpuMs: checked.cpu }], last: checked };

// Runs the server's main(); from here on the process is the server's (its signals, its exit codes). From the
// server's folder, as `npm run start --workspace @latchkey/server` always ran: a relative LATCHKEY_DATA_DIR,
// and the default ./.latchkey, stay where earlier starts put the data.
process.chdir(`${root}packages/server`);
// Stack traces name the TypeScript sources rather than lines of the bundle (~20 ms more at start: the map has no
// copy of the sources).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(`${root}packages/server/dist/main.js`).href);
