#!/usr/bin/env node
// `npm ci` on a fresh clone, as .ci/run runs it (issue 35: ≤ 90 s): wall time, the CPU time of npm and everything
// it ran (extraction, install scripts — isolated-vm's compile —, the postinstall), packages added, node_modules size.
//
//   node bench/install.mjs [--runs 3] [--ref <commit>] [--without-addon-cache] [--keep]
//
// Each run clones this repository (its committed HEAD, or --ref) into a temporary folder and runs
// `npm ci --no-audit --no-fund` there with npm's cache as it is (warm on a machine that installed before: say so
// with the figures). --without-addon-cache measures the first install on a machine: the isolated-vm addon that an
// earlier install kept in npm's _prebuilds cache (scripts/isolated-vm-cache.mjs) is moved aside for each run and
// put back afterwards, so the addon compiles. CPU time is the children's user + system time (/proc/self/stat),
// which a loaded machine inflates less than wall time; the load average is printed with each run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    ref: { type: "string" },
    "without-addon-cache": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const repository = fileURLToPath(new URL("..", import.meta.url));
const npmCache = process.env.npm_config_cache || join(homedir(), ".npm");
const prebuilds = join(npmCache, "_prebuilds");
const TICKS = 100; // USER_HZ: /proc/*/stat counts CPU time in 1/100 s on Linux

/** User + system CPU seconds of this process's waited-for children (and theirs), from /proc/self/stat. */
function childrenCpu() {
  const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS; // cutime, cstime (fields 16 and 17)
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result;
}

const rows = [];
for (let i = 1; i <= Number(values.runs); i++) {
  const work = mkdtempSync(join(tmpdir(), "latchkey-install-"));
  const moved = [];
  try {
    run("git", ["clone", "-q", repository, work]);
    if (values.ref) run("git", ["checkout", "-q", values.ref], work);
    if (values["without-addon-cache"] && existsSync(prebuilds)) {
      for (const file of readdirSync(prebuilds).filter((f) => f.includes("isolated-vm"))) {
        renameSync(join(prebuilds, file), join(work, `.aside-${file}`));
        moved.push(file);
      }
    }
    const load = loadavg()[0];
    const cpuBefore = childrenCpu();
    const started = performance.now();
    const { stdout, stderr } = run("npm", ["ci", "--no-audit", "--no-fund"], work);
    const wall = (performance.now() - started) / 1000;
    const cpu = childrenCpu() - cpuBefore;
    const added = Number(/added (\d+) packages/.exec(stdout)?.[1] ?? NaN);
    const megabytes = Number(run("du", ["-sm", join(work, "node_modules")]).stdout.split("\t")[0]);
    const ebadengine = (stderr.match(/EBADENGINE Unsupported engine/g) ?? []).length;
    const row = { wall, cpu, added, megabytes, ebadengine, load: [load, loadavg()[0]] };
    rows.push(row);
    console.log(`run ${i}: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU, ${added} packages, ${megabytes} MB, ${ebadengine} EBADENGINE warnings (load average ${row.load.map((l) => l.toFixed(1)).join(" → ")})`);
  } finally {
    if (values["without-addon-cache"]) {
      for (const file of readdirSync(prebuilds).filter((f) => f.includes("isolated-vm"))) rmSync(join(prebuilds, file), { force: true });
      for (const file of moved) renameSync(join(work, `.aside-${file}`), join(prebuilds, file));
    }
    if (values.keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`median of ${rows.length}: ${median(rows.map((r) => r.wall)).toFixed(1)} s wall, ${median(rows.map((r) => r.cpu)).toFixed(1)} s CPU, ${median(rows.map((r) => r.added))} packages, ${median(rows.map((r) => r.megabytes))} MB`);
