#!/usr/bin/env node
// What each test file costs its own worker thread (issue 35): runs vitest with the repository's config plus a setup
// file that reads the thread's CPU time (/proc/thread-self/stat, Linux only) when the file starts (before its modules
// load), when its first test is about to run, and after its last, then prints per project the thread CPU of its
// files and the part spent loading modules before the first test, and the costliest files. Only the test's own
// thread counts: not libuv's pool (argon2), not the processes a test starts (Chromium, email sandboxes, servers),
// not the worker's start before the setup file. CPU time, so it holds on a loaded machine.
//
//   node bench/file-cpu.mjs [vitest filters and options]   e.g. node bench/file-cpu.mjs --project "server (PGlite)"
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repository = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "latchkey-file-cpu-"));
const log = join(work, "files.jsonl");

writeFileSync(
  join(work, "setup.ts"),
  `import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
const TICK_MS = 10; // USER_HZ is 100 on Linux
function threadCpuMs(): number {
  const stat = readFileSync("/proc/thread-self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
const started = threadCpuMs();
let firstTest = started;
let file = "?";
let project = "?";
beforeAll((suite) => {
  firstTest = threadCpuMs();
  const task = suite as unknown as { filepath?: string; projectName?: string };
  file = task.filepath ?? "?";
  project = task.projectName ?? "";
});
afterAll(() => {
  appendFileSync(${JSON.stringify(log)}, JSON.stringify({ project, file, loadMs: firstTest - started, totalMs: threadCpuMs() - started }) + "\\n");
});
`,
);
writeFileSync(
  join(work, "config.ts"),
  `import base from ${JSON.stringify(join(repository, "vite.config.ts"))};
const config = base as { test: { projects: { test: Record<string, unknown> }[] } };
config.test.projects = config.test.projects.map((project) => ({ ...project, test: { ...project.test, setupFiles: [...((project.test.setupFiles as string[] | undefined) ?? []), ${JSON.stringify(join(work, "setup.ts"))}] } }));
export default config;
`,
);

const args = ["vitest", "run", "--config", join(work, "config.ts"), "--root", repository, ...process.argv.slice(2)];
const child = spawn("npx", args, { cwd: repository, stdio: "inherit" });
const code = await new Promise((resolve) => child.on("exit", resolve));

let rows = [];
try {
  rows = readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
} catch {
  // no file finished
}
rmSync(work, { recursive: true, force: true });

const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);
const projects = new Map();
for (const row of rows) {
  const entry = projects.get(row.project) ?? { files: 0, total: 0, load: 0 };
  entry.files++;
  entry.total += row.totalMs;
  entry.load += row.loadMs;
  projects.set(row.project, entry);
}
console.log(`\nvitest exit ${code}; ${rows.length} files measured (thread CPU, s; "loading": before the file's first test)`);
console.log(`${"project".padEnd(22)} files  thread CPU  loading  share  loading per file`);
let total = 0;
let load = 0;
for (const [name, entry] of [...projects].sort((a, b) => b[1].total - a[1].total)) {
  total += entry.total;
  load += entry.load;
  console.log(`${name.padEnd(22)} ${String(entry.files).padStart(5)} ${seconds(entry.total)}     ${seconds(entry.load)}  ${String(Math.round((100 * entry.load) / Math.max(1, entry.total))).padStart(4)} %  ${seconds(entry.load / entry.files)}`);
}
console.log(`${"all".padEnd(22)} ${String(rows.length).padStart(5)} ${seconds(total)}     ${seconds(load)}  ${String(Math.round((100 * load) / Math.max(1, total))).padStart(4)} %`);
console.log("\ncostliest files (thread CPU s, loading s):");
for (const row of rows.sort((a, b) => b.totalMs - a.totalMs).slice(0, 15)) {
  console.log(`${seconds(row.totalMs)} ${seconds(row.loadMs)}  ${row.project}  ${row.file.replace(repository, "")}`);
}
process.exitCode = typeof code === "number" ? code : 1;
