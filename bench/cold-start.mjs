#!/usr/bin/env node
// Cold start: time from `npm start` to the first 200 from /api/v1, on an empty data dir and on a warm one
// (embedded PGlite), with the builds up to date; and once per run each, on an empty data dir:
// - the first start on a machine: `npm ci`'s postinstall made the PGlite template (that step is timed on its
//   own, scripts/pglite-template.mjs), the start copies it;
// - with no template at all (a migration added since the install): the start makes it, a few seconds.
// Usage: node bench/cold-start.mjs [runs=3]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILDS, dateOutputs, staleness } from "../scripts/builds.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// Where the server keeps its PGlite templates (packages/server/src/db/pglite-template.ts).
const templates = join(root, "node_modules/.cache/latchkey");

const runs = Number(process.argv[2] ?? 3);
const port = 18_302;

// Stale builds are brought up to date before each timed start, untimed (as start.mjs builds them): on a
// machine where others edit sources meanwhile, a start would otherwise now and then be timed with a build.
let rebuilds = 0;
function buildWhatChanged() {
  for (const build of BUILDS) {
    if (!staleness(root, build)) continue;
    const startedAt = Date.now();
    execFileSync(build.command[0], build.command.slice(1), { cwd: root, stdio: "ignore" });
    dateOutputs(root, build, startedAt);
    rebuilds++;
  }
}

async function timeStart(dataDir) {
  buildWhatChanged();
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: { ...process.env, LATCHKEY_PORT: String(port), LATCHKEY_DATA_DIR: dataDir, LATCHKEY_LOG_LEVEL: "warn" },
    stdio: "ignore",
    detached: true,
  });
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1`);
      if (response.status === 200) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  process.kill(-child.pid, "SIGTERM");
  // npm ends on the signal at once; the server (same process group) a moment later, and must be gone before
  // the next start, or that one would be answered by it (and find the data dir locked).
  while (groupAlive(child.pid)) await new Promise((r) => setTimeout(r, 20));
  return ms;
}

function groupAlive(groupId) {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

const empty = [];
const warm = [];
const install = [];
const afterInstall = [];
const noTemplate = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-"));
  const dataDir = join(dir, "data");
  empty.push(await timeStart(dataDir));
  warm.push(await timeStart(dataDir));
  rmSync(templates, { recursive: true, force: true });
  const installStarted = performance.now();
  execFileSync(process.execPath, ["scripts/pglite-template.mjs"], { cwd: root, stdio: "ignore" });
  install.push(performance.now() - installStarted);
  afterInstall.push(await timeStart(join(dir, "data-2")));
  rmSync(templates, { recursive: true, force: true });
  noTemplate.push(await timeStart(join(dir, "data-3")));
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {
  "empty data dir": empty,
  "warm data dir": warm,
  "template made at install (postinstall)": install,
  "first start after install": afterInstall,
  "empty data dir, no template (start makes it)": noTemplate,
};
for (const [name, xs] of Object.entries(results)) {
  console.log(`${name.padEnd(44)}  median ${median(xs).toFixed(0)} ms  (runs: ${xs.map((x) => x.toFixed(0)).join(", ")})`);
}
if (rebuilds > 0) console.log(`(${rebuilds} build${rebuilds === 1 ? "" : "s"} brought up to date between runs, untimed: sources changed meanwhile)`);
