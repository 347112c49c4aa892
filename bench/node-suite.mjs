// `node bench/node-suite.mjs [--runs N] [--project NAME]… <file>…`: the server suites' cost run as vite.config.ts runs
// them (a project's files sharing its worker threads, one file after another) against LATCHKEY_TEST_ISOLATE_FILES=1
// (a fresh worker thread per file), alternated A/B N times (default 2) under the same load. For each
// run: the wall time, the CPU time (user + system, through /usr/bin/time: vitest and every process it waited for),
// the 1-minute load average before it, vitest's summed collect and test times, and pass/fail. Then the medians.
// CPU is the figure to read on a loaded machine; the whole run's saving is about (CPU before - CPU after) / 2 cores.
//
// Default project: "server (PGlite)" (add --project "server (PostgreSQL)" with LATCHKEY_TEST_DATABASE_URL set).
// Default files: 24 server files of every kind (short and long, with and without mail, OAuth, payments).
//
// `--ref REV` compares the given test files with their versions at git revision REV instead (both run as vite.config.ts
// runs them, against today's sources and support code): REV's copy of each file is written beside it as
// zz-ref-<name>.test.ts for the run and removed after. Per run and file: vitest's duration of the file; then medians.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
let runs = 2;
let ref;
const projects = [];
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--project") projects.push(args[++i]);
  else if (args[i] === "--ref") ref = args[++i];
  else files.push(args[i]);
}
if (projects.length === 0) projects.push("server (PGlite)");
if (files.length === 0) {
  const sample = ["access-tokens", "anonymous", "auth-password", "caches", "config-document", "contact-channels", "email-case", "email-drafts", "health", "internal-api-keys", "oauth-providers", "passkeys", "payments-items", "permissions-grants", "pipeline", "projects", "session-devices", "team-memberships", "users-by-id", "users-create", "users-list", "users-me", "verification-codes", "webhooks"];
  files.push(...sample.map((name) => `packages/server/test/${name}.test.ts`));
}

const scratch = mkdtempSync(join(tmpdir(), "latchkey-node-suite-"));
const refCopies = ref ? files.map((file) => join(dirname(file), `zz-ref-${basename(file)}`)) : [];
const removeRefCopies = () => refCopies.forEach((copy) => rmSync(join(root, copy), { force: true }));
if (ref) {
  process.on("exit", removeRefCopies);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
  files.forEach((file, i) => writeFileSync(join(root, refCopies[i]), execFileSync("git", ["show", `${ref}:${file}`], { cwd: root })));
}
const modeNames = ref ? ["today", ref] : ["shared", "isolated"];
const modes = ref ? { today: { env: {}, files }, [ref]: { env: {}, files: refCopies } } : { shared: { env: {}, files }, isolated: { env: { LATCHKEY_TEST_ISOLATE_FILES: "1" }, files } };
const results = Object.fromEntries(modeNames.map((mode) => [mode, []]));
/** Per mode, file (today's name) → its durations, one per run. */
const perFile = Object.fromEntries(modeNames.map((mode) => [mode, new Map(files.map((file) => [file, []]))]));
for (let run = 0; run < runs; run++) {
  // Alternate which mode goes first, so that a trend in the machine's load lands on both.
  const order = run % 2 ? [...modeNames].reverse() : modeNames;
  for (const mode of order) {
    const timeFile = join(scratch, "time");
    const jsonFile = join(scratch, "report.json");
    const load = loadavg()[0];
    const startedAt = performance.now();
    const vitestArgs = ["vitest", "run", ...projects.flatMap((project) => ["--project", project]), "--reporter=json", `--outputFile=${jsonFile}`, ...modes[mode].files];
    const result = spawnSync("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, "npx", ...vitestArgs], { cwd: root, encoding: "utf8", env: { ...process.env, ...modes[mode].env } });
    const wall = (performance.now() - startedAt) / 1000;
    const [user, system] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
    let tests = 0;
    let passed = false;
    try {
      const report = JSON.parse(readFileSync(jsonFile, "utf8"));
      passed = report.success;
      tests = report.testResults.reduce((total, file) => total + (file.endTime - file.startTime) / 1000, 0);
      const sums = new Map();
      for (const file of report.testResults) {
        const name = file.name.slice(root.length).replace(/^\//, "").replace("zz-ref-", "");
        sums.set(name, (sums.get(name) ?? 0) + (file.endTime - file.startTime) / 1000);
      }
      for (const [name, seconds] of sums) perFile[mode].get(name)?.push(seconds);
    } catch {
      // No report: the run failed before writing one.
    }
    const figures = { wall, cpu: user + system, load, tests, passed: passed && result.status === 0 };
    results[mode].push(figures);
    console.log(`run ${run + 1} ${mode.padEnd(8)} wall ${wall.toFixed(1)} s  cpu ${figures.cpu.toFixed(1)} s  files' test time ${tests.toFixed(1)} s  load ${load.toFixed(2)}  ${figures.passed ? "passed" : "FAILED"}`);
    if (!figures.passed) console.log((result.stdout + result.stderr).split("\n").slice(-30).join("\n"));
  }
}
rmSync(scratch, { recursive: true, force: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
};
console.log(`\n${files.length} files × ${projects.join(" + ")}, medians of ${runs}:`);
for (const mode of [...modeNames].reverse()) {
  const r = results[mode];
  console.log(`  ${mode.padEnd(8)} wall ${median(r.map((x) => x.wall)).toFixed(1)} s  cpu ${median(r.map((x) => x.cpu)).toFixed(1)} s  load ${median(r.map((x) => x.load)).toFixed(2)}`);
}
const [after, before] = modeNames;
const saved = median(results[before].map((x) => x.cpu)) - median(results[after].map((x) => x.cpu));
console.log(`  CPU saved: ${saved.toFixed(1)} s, ${(saved / (files.length * projects.length)).toFixed(2)} s per file`);
console.log(`  per file (vitest's duration, summed over the projects; median ${before} → ${after}):`);
for (const file of files) {
  const figure = (mode) => (perFile[mode].get(file).length ? `${median(perFile[mode].get(file)).toFixed(1)} s` : "-");
  console.log(`    ${file}: ${figure(before)} → ${figure(after)}`);
}
