#!/usr/bin/env node
// Cold start: time from `npm start` to the first 200 from /api/v1 (embedded PGlite), with the builds up to date:
// - warm data dir (a restart) and empty data dir (a new one, copied from the PGlite template), `runs` times each,
//   alternated; with the server's CPU time at that moment (/proc) and its start-phase lines
//   (LATCHKEY_LOG_LEVEL=debug, packages/server/src/start-phases.ts): the median of each phase's wall and CPU ms;
// - once per run each, on an empty data dir: the first start on a machine (`npm ci`'s postinstall made the PGlite
//   template, timed on its own: scripts/pglite-template.mjs), and with no template at all (a migration added
//   since the install: the start makes it, a few seconds);
// - the first `npm start` after a fresh clone, once (`--no-clone` skips it): `git clone` of the repository's
//   committed HEAD into a temporary directory, node_modules hard-linked from this one (no `npm install`: that is
//   timed on its own) with the PGlite template the postinstall would have made, then `npm start` until /api/v1
//   answers, and until the dashboard does (every build done), with the builds' own lines.
// Usage: node bench/cold-start.mjs [runs=3] [--no-clone] [--quick] [--root <checkout>]...   (--quick: only the warm
//   and the empty data dir; --root: measure another checkout, e.g. a clone at an earlier commit with node_modules
//   linked (bench/fresh-clone.mjs); several --root: their runs alternate round by round, to compare before and after
//   on one machine under the same load)
// The fresh clone's first start builds the pages and scripts in the background (scripts/start.mjs) while /api/v1
// answers: the bench reports both times, until /api/v1 answers and until every built path does (the dashboard, the
// React demo, the elements bundle).
// On a loaded machine wall times vary with the load: the figures print the 1-minute load average, and the CPU ms
// (the server process's user + system time when it first answered) move far less.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freshClone, templatesOf } from "./fresh-clone.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const quick = args.includes("--quick");
const noClone = quick || args.includes("--no-clone");
const roots = [];
for (let root; (root = option("--root")); ) roots.push(`${resolve(root)}/`);
if (roots.length === 0) roots.push(fileURLToPath(new URL("..", import.meta.url)));
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const port = 18_302;
/** The paths a start serves from the builds (scripts/builds.mjs), each answering 200 once its build is done. */
const BUILT_PATHS = ["/dashboard/", "/demo/react/", "/static/v1/latchkey.iife.js"];

// Stale builds are brought up to date before each timed start, untimed (as start.mjs builds them): on a
// machine where others edit sources meanwhile, a start would otherwise now and then be timed with a build.
let rebuilds = 0;
async function buildWhatChanged(root) {
  const { BUILDS, dateOutputs, staleness } = await import(pathToFileURL(join(root, "scripts/builds.mjs")).href);
  for (const build of BUILDS) {
    if (!staleness(root, build)) continue;
    const startedAt = Date.now();
    execFileSync(build.command[0], build.command.slice(1), { cwd: root, stdio: "ignore" });
    dateOutputs(root, build, startedAt);
    rebuilds++;
  }
}

/** CPU ms (user + system) of a process and its threads so far, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/** The pid of the node process running scripts/start.mjs under npm (the server), found through /proc. */
function serverPid(npmPid) {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const group = Number(stat.split(") ")[1].split(" ")[2]);
      if (group !== npmPid) continue;
      const [command, script] = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (command.endsWith("node") && script?.endsWith("scripts/start.mjs")) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/**
 * `npm start` in `checkout` on `dataDir`; resolves with the ms until /api/v1 answered 200 (and until every built
 * path did, with `untilBuilt`), the server's CPU ms then, its start-phase lines and the builds' lines.
 */
async function timeStart(dataDir, { checkout, untilBuilt = false } = {}) {
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: checkout,
    env: { ...process.env, LATCHKEY_PORT: String(port), LATCHKEY_DATA_DIR: dataDir, LATCHKEY_LOG_LEVEL: "debug" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const wait = async (path) => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        if (response.status === 200) return performance.now() - started;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const ms = await wait("/api/v1");
  const pid = serverPid(child.pid);
  const cpuMs = pid ? cpuMsOf(pid) : undefined;
  let builtMs;
  if (untilBuilt) for (const path of BUILT_PATHS) builtMs = await wait(path);
  // The phase lines are logged by then; pino writes them out asynchronously, so give stdout a moment.
  await new Promise((r) => setTimeout(r, 200));
  process.kill(-child.pid, "SIGTERM");
  // npm ends on the signal at once; the server (same process group) a moment later, and must be gone before
  // the next start, or that one would be answered by it (and find the data dir locked).
  while (groupAlive(child.pid)) await new Promise((r) => setTimeout(r, 20));
  const phases = [];
  const builds = [];
  for (const line of output.split("\n")) {
    if (line.startsWith("Building ") || line.includes(" done in ")) builds.push(line.trim());
    if (!line.includes('"start phase"')) continue;
    try {
      const { phase, ms: phaseMs, cpuMs: phaseCpuMs } = JSON.parse(line);
      phases.push({ phase, ms: phaseMs, cpuMs: phaseCpuMs });
    } catch {
      // another line
    }
  }
  return { ms, cpuMs, builtMs, phases, builds };
}

function groupAlive(groupId) {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

const median = (xs) => {
  const known = xs.filter((x) => x !== undefined);
  return known.length ? [...known].sort((a, b) => a - b)[Math.floor(known.length / 2)] : undefined;
};
const fmt = (x) => (x === undefined ? "?" : x.toFixed(0));
const loads = [];
const noteLoad = () => loads.push(loadavg()[0]);

const results = new Map(roots.map((root) => [root, { "warm data dir": [], "empty data dir": [], "template made at install (postinstall)": [], "first start after install": [], "empty data dir, no template (start makes it)": [] }]));
for (let i = 0; i < runs; i++) {
  for (const root of roots) {
    const of = results.get(root);
    const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-"));
    await buildWhatChanged(root);
    noteLoad();
    of["empty data dir"].push(await timeStart(join(dir, "data"), { checkout: root }));
    await buildWhatChanged(root);
    noteLoad();
    of["warm data dir"].push(await timeStart(join(dir, "data"), { checkout: root }));
    if (quick) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    rmSync(templatesOf(root), { recursive: true, force: true });
    const installStarted = performance.now();
    execFileSync(process.execPath, ["scripts/pglite-template.mjs"], { cwd: root, stdio: "ignore" });
    of["template made at install (postinstall)"].push({ ms: performance.now() - installStarted });
    await buildWhatChanged(root);
    of["first start after install"].push(await timeStart(join(dir, "data-2"), { checkout: root }));
    rmSync(templatesOf(root), { recursive: true, force: true });
    await buildWhatChanged(root);
    of["empty data dir, no template (start makes it)"].push(await timeStart(join(dir, "data-3"), { checkout: root }));
    rmSync(dir, { recursive: true, force: true });
  }
}
// The postinstall's template again, for whoever starts next.
if (!quick && runs > 0) for (const root of roots) execFileSync(process.execPath, ["scripts/pglite-template.mjs"], { cwd: root, stdio: "ignore" });

if (runs > 0) console.log(`${runs} run${runs === 1 ? "" : "s"}${roots.length > 1 ? ` of each checkout, alternated` : ""}, 1-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${(await import("node:os")).availableParallelism()} cores`);
for (const root of runs > 0 ? roots : []) {
  console.log(`\n${root}:`);
  for (const [name, xs] of Object.entries(results.get(root))) {
    if (xs.length === 0) continue;
    const cpu = xs.some((x) => x.cpuMs !== undefined) ? `, server CPU ${fmt(median(xs.map((x) => x.cpuMs)))} ms` : "";
    console.log(`${name.padEnd(44)}  median ${fmt(median(xs.map((x) => x.ms)))} ms${cpu}  (runs: ${xs.map((x) => fmt(x.ms)).join(", ")})`);
  }
  for (const name of ["warm data dir", "empty data dir"]) {
    const rs = results.get(root)[name];
    console.log(`\nstart phases, ${name} (median wall ms / CPU ms of ${runs}):`);
    const names = [...new Set(rs.flatMap((r) => r.phases.map((p) => p.phase)))];
    for (const phase of names) {
      const of = rs.map((r) => r.phases.find((p) => p.phase === phase));
      console.log(`  ${phase.padEnd(34)} ${fmt(median(of.map((p) => p?.ms))).padStart(6)} / ${fmt(median(of.map((p) => p?.cpuMs))).padStart(5)}`);
    }
  }
}
if (rebuilds > 0) console.log(`(${rebuilds} build${rebuilds === 1 ? "" : "s"} brought up to date between runs, untimed: sources changed meanwhile)`);

if (!noClone) {
  for (const root of roots) {
    const clone = freshClone(root);
    try {
      noteLoad();
      const first = await timeStart(join(clone, "data"), { checkout: clone, untilBuilt: true });
      console.log(`\nfirst npm start after a fresh clone of ${root} (load ${loadavg()[0].toFixed(1)}): /api/v1 answers after ${fmt(first.ms)} ms, every built path (${BUILT_PATHS.join(", ")}) after ${fmt(first.builtMs)} ms`);
      for (const line of first.builds) console.log(`  ${line}`);
      for (const { phase, ms, cpuMs } of first.phases) console.log(`  ${phase.padEnd(34)} ${fmt(ms).padStart(6)} / ${fmt(cpuMs).padStart(5)}`);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }
}
