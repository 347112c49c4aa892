#!/usr/bin/env node
// Where a test run's CPU goes, by kind of process: runs a command (by default the vitest part of `npm test`) and
// reads every process's CPU time from /proc once a second, then prints the seconds of CPU each kind used and the
// machine's whole busy time over the run (Linux only). A process that lives less than a second may be missed; what
// it used shows in the machine's total. Run it on an otherwise quiet machine: other processes count as "other".
//
//   node bench/suite-cpu.mjs [-- command args…]     e.g. node bench/suite-cpu.mjs -- npx vitest run --project e2e
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const separator = process.argv.indexOf("--");
const command = separator >= 0 ? process.argv.slice(separator + 1) : ["npx", "vitest", "run"];
const TICKS_PER_SECOND = 100;

/** What a process is, from its command line. */
function kindOf(commandLine) {
  const kinds = [
    [/vitest/, "vitest (main process and its worker threads: the tests, in-process servers, PGlite)"],
    [/chrom/, "Chromium"],
    [/^postgres|postgres:/, "PostgreSQL"],
    [/sandbox-process/, "email sandbox processes"],
    [/tsx src\/main\.ts|dist\/main\.js|scripts\/start\.mjs|latchkey-test-server-\d+\//, "Latchkey server processes (and the CLI, dev OpenID provider)"],
    [/esbuild/, "esbuild"],
    [/next/, "Next.js"],
    [/storybook/, "Storybook"],
    [/vite/, "Vite"],
    [/typescript|tsc/, "TypeScript"],
    [/web-test-runner/, "web-test-runner"],
  ];
  return kinds.find(([pattern]) => pattern.test(commandLine))?.[1] ?? "other";
}

function machineBusyTicks() {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].split(/\s+/).slice(1).map(Number);
  return fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]; // user nice system irq softirq steal
}

const seen = new Map(); // pid:starttime → { kind, ticks }
const totals = new Map();
function sample(first = false) {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    const key = `${pid}:${fields[19]}`;
    let entry = seen.get(key);
    if (!entry) {
      let commandLine = "";
      try {
        commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      } catch {
        continue;
      }
      // What was already running at the start is not the run's.
      entry = { kind: kindOf(commandLine), ticks: first ? ticks : 0 };
      seen.set(key, entry);
    }
    if (ticks > entry.ticks) totals.set(entry.kind, (totals.get(entry.kind) ?? 0) + ticks - entry.ticks);
    entry.ticks = ticks;
  }
}

sample(true);
const busyAtStart = machineBusyTicks();
const startedAt = Date.now();
const timer = setInterval(sample, 1000);
const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
child.on("exit", (code) => {
  clearInterval(timer);
  sample();
  const seconds = (ticks) => (ticks / TICKS_PER_SECOND).toFixed(0).padStart(6);
  console.log(`\n${command.join(" ")}: exit ${code}, ${((Date.now() - startedAt) / 1000).toFixed(0)} s wall`);
  console.log(`${seconds(machineBusyTicks() - busyAtStart)} s  the machine's busy time (every process)`);
  for (const [kind, ticks] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`${seconds(ticks)} s  ${kind}`);
  process.exitCode = code ?? 1;
});
