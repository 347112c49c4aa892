// What `npm start` builds before the server runs, and whether each build is stale (scripts/start.mjs).
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ELEMENTS_SOURCES = [
  "packages/protocol/src",
  "packages/core/src",
  "packages/elements/src",
  "packages/elements/locales",
  "packages/elements/vite.config.ts",
  "package-lock.json",
];

/**
 * Each build: what it reads (directories count with everything in them but dist/ and node_modules/), what it
 * writes, and the command (`parallel`: commands that together do what `command` does, which may run at once).
 * A build is stale when an output is missing or older than a source, or when a build of it was cut short. The
 * builds read sources only, never another build's outputs, so `npm start` runs the stale ones side by side.
 * `serves`: what the server serves from the outputs (packages/server/src/ui-builds.ts); `npm start` runs these
 * builds in the background while the server answers, and waits only for the server's own build.
 */
export const BUILDS = [
  {
    name: "the web components bundle (packages/elements/dist)",
    serves: "elements",
    sources: ELEMENTS_SOURCES,
    outputs: ["packages/elements/dist/latchkey.js", "packages/elements/dist/latchkey.iife.js", "packages/elements/dist/latchkey-sign-in.iife.js", "packages/elements/dist/latchkey-account.js"],
    command: ["npm", "run", "--silent", "build:elements"],
    // The same two Vite builds as `command` (package.json's build:elements), which `npm start` runs side by side.
    parallel: [
      ["node", "node_modules/vite/bin/vite.js", "build", "--config", "packages/elements/vite.config.ts", "--logLevel", "warn"],
      ["node", "node_modules/vite/bin/vite.js", "build", "--config", "packages/elements/vite.config.ts", "--mode", "sign-in", "--logLevel", "warn"],
    ],
  },
  {
    name: "the React demo (demo/react/dist)",
    serves: "demo",
    sources: [...ELEMENTS_SOURCES, "packages/react/src", "demo/react", "scripts/vite-single-page-app.ts"],
    outputs: ["demo/react/dist/index.html"],
    command: ["node", "node_modules/vite/bin/vite.js", "build", "--config", "demo/react/vite.config.ts"],
  },
  {
    name: "the admin dashboard (packages/dashboard/dist)",
    serves: "dashboard",
    sources: [...ELEMENTS_SOURCES, "packages/react/src", "packages/dashboard/src", "packages/dashboard/index.html", "packages/dashboard/vite.config.ts", "packages/dashboard/package.json", "scripts/vite-single-page-app.ts"],
    outputs: ["packages/dashboard/dist/index.html"],
    command: ["node", "node_modules/vite/bin/vite.js", "build", "--config", "packages/dashboard/vite.config.ts"],
  },
  {
    name: "the server (packages/server/dist/main.js)",
    sources: ["packages/protocol/src", "packages/server/src", "packages/server/scripts", "packages/server/package.json", "package-lock.json"],
    outputs: ["packages/server/dist/main.js"],
    command: ["node", "packages/server/scripts/bundle.mjs"],
  },
];

/**
 * Why `build` must run in `root` ("… is missing", "… changed"), or undefined when its outputs are up to date.
 * `newest` (a Map) keeps what was found under each source for the next builds checked in the same pass: the
 * builds share most sources, and each tree is then walked once (issue 35).
 */
export function staleness(root, build, newest = new Map()) {
  if (statSync(markerOf(root, build), { throwIfNoEntry: false })) return "its last build was cut short";
  let oldestOutput = Infinity;
  for (const output of build.outputs) {
    const stat = statSync(join(root, output), { throwIfNoEntry: false });
    if (!stat) return `${output} is missing`;
    oldestOutput = Math.min(oldestOutput, stat.mtimeMs);
  }
  for (const source of build.sources) {
    const path = join(root, source);
    if (!newest.has(path)) newest.set(path, newestUnder(path));
    const found = newest.get(path);
    if (found && found.mtimeMs > oldestOutput) return `${found.path.slice(root.length).replace(/^\//, "")} changed`;
  }
  return undefined;
}

/**
 * Before a build: a mark that it runs, which `dateOutputs` takes away when it succeeded. A build stopped half-way
 * (npm start ended during a background build) may have written some outputs newer than the sources; the mark
 * makes the next start build again all the same.
 */
export function markBuilding(root, build) {
  mkdirSync(join(root, MARKERS), { recursive: true });
  writeFileSync(markerOf(root, build), `${process.pid}\n`);
}

/**
 * After a build, its outputs are dated to when it started: a source saved while it ran is then newer than
 * them, and the next start builds again.
 */
export function dateOutputs(root, build, startedAt) {
  const time = new Date(startedAt);
  for (const output of build.outputs) utimesSync(join(root, output), time, time);
  rmSync(markerOf(root, build), { force: true });
}

const MARKERS = "node_modules/.cache/latchkey-builds";
const markerOf = (root, build) => join(root, MARKERS, build.outputs[0].replaceAll("/", "_"));

const SKIPPED = new Set(["dist", "node_modules"]);

/**
 * The most recently modified path under `path` (itself included), or undefined when there is none. A directory's
 * own time moves when a file in it is added or removed, so it counts too — except for one that holds a skipped
 * entry (demo/react holds dist/), whose time also moves when a build (re)creates that.
 */
function newestUnder(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  const entries = readdirSync(path);
  let newest = entries.some((entry) => SKIPPED.has(entry)) ? undefined : { path, mtimeMs: stat.mtimeMs };
  for (const entry of entries) {
    if (SKIPPED.has(entry)) continue;
    const found = newestUnder(join(path, entry));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}
