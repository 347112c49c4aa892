#!/usr/bin/env node
// What the builds of a fresh clone's first `npm start` cost (scripts/builds.mjs: the elements bundle, the React
// demo, the dashboard, the server): each build's commands alone, one after another, then all of them side by side
// as `npm start` runs them; wall time and CPU time (user + system of each command and everything it ran, from
// /usr/bin/time), in a fresh clone of the committed HEAD (node_modules hard-linked: bench/fresh-clone.mjs).
//
//   node bench/builds.mjs [--runs 3] [--ref <commit>]... [--alone-only | --together-only]
//
// With several --ref, each is cloned once and the runs alternate between them round by round (before/after on one
// machine under the same load). CPU time moves far less than wall time on a loaded machine; the 1-minute load
// average is printed with each figure. Linux only (/usr/bin/time, /proc).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { freshClone } from "./fresh-clone.mjs";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    ref: { type: "string", multiple: true, default: ["HEAD"] },
    "alone-only": { type: "boolean", default: false },
    "together-only": { type: "boolean", default: false },
  },
});
const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(values.runs);
const timings = mkdtempSync(join(tmpdir(), "latchkey-build-times-"));

/** Runs `command` in `cwd` under /usr/bin/time: resolves with { wall, cpu } in seconds. */
function timed(cwd, [command, ...args]) {
  const out = join(timings, `${Math.random().toString(36).slice(2)}.txt`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "%U %S", "-o", out, command, ...args], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`${[command, ...args].join(" ")} failed in ${cwd}:\n${stderr}`));
      const [user, system] = readFileSync(out, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
      resolve({ wall: (performance.now() - started) / 1000, cpu: user + system });
    });
  });
}

/** One build's commands (side by side when it has `parallel`, as start.mjs runs them). */
async function build(cwd, b) {
  const started = performance.now();
  const parts = await Promise.all((b.parallel ?? [b.command]).map((command) => timed(cwd, command)));
  return { wall: (performance.now() - started) / 1000, cpu: parts.reduce((sum, p) => sum + p.cpu, 0), parts };
}

const checkouts = [];
for (const ref of values.ref) {
  const dir = freshClone(root, { ref: ref === "HEAD" ? undefined : ref, prefix: "latchkey-builds-" });
  const { BUILDS } = await import(pathToFileURL(join(dir, "scripts/builds.mjs")).href);
  checkouts.push({ ref, dir, BUILDS, alone: new Map(), together: [] });
}

const loads = [];
try {
  for (let i = 0; i < runs; i++) {
    for (const c of checkouts) {
      if (!values["together-only"]) {
        for (const b of c.BUILDS) {
          loads.push(loadavg()[0]);
          const r = await build(c.dir, b);
          if (!c.alone.has(b.name)) c.alone.set(b.name, []);
          c.alone.get(b.name).push(r);
        }
      }
      if (!values["alone-only"]) {
        loads.push(loadavg()[0]);
        const started = performance.now();
        const all = await Promise.all(c.BUILDS.map((b) => build(c.dir, b)));
        c.together.push({ wall: (performance.now() - started) / 1000, cpu: all.reduce((sum, r) => sum + r.cpu, 0), builds: all });
      }
    }
  }
} finally {
  for (const c of checkouts) rmSync(c.dir, { recursive: true, force: true });
  rmSync(timings, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (x) => `${x.toFixed(1)} s`;
console.log(`${runs} run${runs === 1 ? "" : "s"}, 1-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores; medians (wall / CPU)`);
for (const c of checkouts) {
  console.log(`\n${c.ref}:`);
  for (const [name, rs] of c.alone) {
    const parts = rs[0].parts.length > 1 ? `  (commands: ${rs[0].parts.map((_, k) => `${s(median(rs.map((r) => r.parts[k].wall)))} / ${s(median(rs.map((r) => r.parts[k].cpu)))}`).join(", ")})` : "";
    console.log(`  alone: ${name.padEnd(48)} ${s(median(rs.map((r) => r.wall)))} / ${s(median(rs.map((r) => r.cpu)))}${parts}`);
  }
  if (c.alone.size) console.log(`  alone, one after another: ${s(median(c.alone.get([...c.alone.keys()][0]).map((_, k) => [...c.alone.values()].reduce((sum, rs) => sum + rs[k].wall, 0))))}`);
  if (c.together.length) {
    console.log(`  side by side: ${s(median(c.together.map((r) => r.wall)))} / ${s(median(c.together.map((r) => r.cpu)))}  (runs: ${c.together.map((r) => r.wall.toFixed(1)).join(", ")})`);
    c.BUILDS.forEach((b, k) => console.log(`    ${b.name.padEnd(48)} done after ${s(median(c.together.map((r) => r.builds[k].wall)))}, CPU ${s(median(c.together.map((r) => r.builds[k].cpu)))}`));
  }
}
