#!/usr/bin/env node
// Where a profiled server's main thread spent its time: self time of a `.cpuprofile` (node --cpu-prof, e.g. through
// BENCH_LATCHKEY_NODE_ARGS, bench/harness.mjs) grouped by area and by function, over the busiest stretch of the run
// (the measured load) unless a window is given.
//
//   node bench/profile-summary.mjs <file.cpuprofile> [--per N] [--from S --to S] [--top 25]
//
// --per N: also print each figure divided by N (say, the sign-ins answered in the window), in ms.
// --from/--to: seconds since the profile started; by default, after the start-up (up to the first idle second), the
// longest stretch whose every second is at least a quarter as busy as the busiest one. A timeline is printed to check it.
import { readFileSync } from "node:fs";
import { optionReader } from "./harness.mjs";

const file = process.argv[2];
if (!file || file.startsWith("--")) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [--per N] [--from S --to S] [--top 25]");
  process.exit(2);
}
const { text, number } = optionReader(process.argv.slice(3), "profile-summary");
const top = number("top", undefined, 25, { max: 1000 });
const per = text("per") === undefined ? undefined : number("per", undefined, 1, { max: 1e9 });

const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

// Sample times, in µs since the profile started.
const times = [];
for (let i = 0, t = 0; i < profile.samples.length; i++) times.push((t += profile.timeDeltas[i]));
const isIdle = (id) => nodes.get(id).callFrame.functionName === "(idle)";

// Busy µs per second of the profile.
const seconds = Math.ceil((times.at(-1) ?? 0) / 1e6);
const busy = new Array(seconds + 1).fill(0);
for (let i = 0; i < profile.samples.length; i++) if (!isIdle(profile.samples[i])) busy[Math.floor(times[i] / 1e6)] += profile.timeDeltas[i];
console.log(`timeline (busy ms per second): ${busy.map((us) => Math.round(us / 1000)).join(" ")}`);

let [from, to] = [text("from"), text("to")].map((v) => (v === undefined ? undefined : Number(v)));
if (from === undefined || to === undefined) {
  const afterStartUp = Math.max(0, busy.findIndex((us) => us < 50_000));
  const floor = Math.max(...busy.slice(afterStartUp)) / 4;
  let best = [afterStartUp, afterStartUp];
  for (let start = afterStartUp; start < busy.length; start++) {
    let end = start;
    while (end < busy.length && busy[end] >= floor) end++;
    if (end - start > best[1] - best[0]) best = [start, end];
  }
  [from, to] = [from ?? best[0], to ?? best[1]];
}
console.log(`window: ${from} s to ${to} s of the profile${per ? `, figures also per ${per}` : ""}`);

const area = (node) => {
  const { url, functionName } = node.callFrame;
  if (url === "") {
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(program)") return "V8/native (program)";
    if (functionName === "(idle)") return "idle";
    return `native: ${functionName}`;
  }
  if (url.startsWith("node:")) {
    const module = url.slice(5);
    return `node:${module.split("/")[0] === "internal" ? module.split("/").slice(1, 3).join("/") : module}`;
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return `npm: ${inModules[1]}`;
  const inRepo = /\/(packages\/[^/]+\/src\/(?:[^/]+\/)?)/.exec(url);
  if (inRepo) return inRepo[1];
  return url;
};

const byArea = new Map();
const byFunction = new Map();
let total = 0;
let idleTotal = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const t = times[i] / 1e6;
  if (t < from || t >= to) continue;
  const node = nodes.get(profile.samples[i]);
  const us = profile.timeDeltas[i];
  if (isIdle(node.id)) {
    idleTotal += us;
    continue;
  }
  total += us;
  const a = area(node);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(/^.*\/packages\//, "packages/")}:${lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
}

const ms = (us) => (us / 1000).toFixed(1).padStart(8);
const each = (us) => (per ? `  ${(us / 1000 / per).toFixed(3).padStart(7)} ms each` : "");
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`busy ${ms(total).trim()} ms, idle ${ms(idleTotal).trim()} ms${each(total)}\n\nself time by area:`);
for (const [name, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ms ${pct(us)}${each(us)}  ${name}`);
console.log("\nself time by function:");
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ms ${pct(us)}${each(us)}  ${name}`);
