// `node bench/e2e-files.mjs [--runs N] [--json out.json] <file> [<file>…]`: the wall time of each browser test file
// (the vitest `e2e` project) run alone, N times (default 1), with the 1-minute load average before each run, and
// the CPU time (user + system) of the run's processes (vitest, the server in it, Chromium, builds; through
// /usr/bin/time), the steadier figure on a loaded machine. Without
// files it runs every *.e2e.test.ts the project includes. Prints one line per run and then per file the median, the
// sum of the medians, and how the files would schedule on 4 workers (longest first, each on the least-loaded worker,
// as vitest's pool hands files out; an estimate: files on a busy machine slow one another down).
//
// Builds the files need (demo, elements, dashboard, Storybook, the Next.js app) are made before the first run by the
// file that needs them; pass --runs 2 and read the second run when a build was stale.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
let runs = 1;
let jsonOut;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--json") jsonOut = args[++i];
  else files.push(args[i]);
}
if (files.length === 0) files.push(...allE2eFiles());

const times = new Map(files.map((file) => [file, []]));
const cpuTimes = new Map(files.map((file) => [file, []]));
const scratch = mkdtempSync(join(tmpdir(), "latchkey-e2e-files-"));
const timeFile = join(scratch, "time");
for (let run = 0; run < runs; run++) {
  for (const file of files) {
    const load = loadavg()[0].toFixed(2);
    const startedAt = performance.now();
    const result = spawnSync("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, "npx", "vitest", "run", "--project", "e2e", file], { cwd: root, encoding: "utf8", env: process.env });
    const seconds = (performance.now() - startedAt) / 1000;
    const [user, system] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
    const passed = result.status === 0;
    times.get(file).push(seconds);
    cpuTimes.get(file).push(user + system);
    console.log(`${file}\trun ${run + 1}\t${seconds.toFixed(1)} s\tcpu ${(user + system).toFixed(1)} s\tload ${load}\t${passed ? "passed" : "FAILED"}`);
    if (!passed) console.log((result.stdout + result.stderr).split("\n").slice(-40).join("\n"));
  }
}

rmSync(scratch, { recursive: true, force: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const medians = files.map((file) => [file, median(times.get(file))]);
const cpuMedians = new Map(files.map((file) => [file, median(cpuTimes.get(file))]));
console.log("\nmedian per file (wall, CPU):");
for (const [file, seconds] of medians) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${cpuMedians.get(file).toFixed(1).padStart(6)} s  ${file}`);
const sum = medians.reduce((total, [, seconds]) => total + seconds, 0);
const cpuSum = [...cpuMedians.values()].reduce((total, seconds) => total + seconds, 0);
console.log(`  ${sum.toFixed(1).padStart(6)} s  ${cpuSum.toFixed(1).padStart(6)} s  sum`);
const workers = [0, 0, 0, 0];
for (const [, seconds] of [...medians].sort((a, b) => b[1] - a[1])) {
  const least = workers.indexOf(Math.min(...workers));
  workers[least] += seconds;
}
console.log(`  ${Math.max(...workers).toFixed(1).padStart(6)} s  on 4 workers (longest first; workers ${workers.map((w) => w.toFixed(0)).join(" / ")} s)`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ runs: Object.fromEntries(times), cpu: Object.fromEntries(cpuTimes), medians: Object.fromEntries(medians) }, null, 2));

function allE2eFiles() {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name.startsWith(".") || name === "dist") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".e2e.test.ts")) found.push(relative(root, path));
    }
  };
  for (const dir of ["demo/test", "stories/test", "packages/elements/test", "packages/cli/test", "packages/dashboard/test", "packages/server/test"]) walk(join(root, dir));
  return found.sort();
}
