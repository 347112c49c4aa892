// `node bench/chromium-contexts.mjs [--rounds N] [--contexts N]`: what new browser contexts cost Debian's Chromium as
// the browser tests launch it (playwright-core, demo/test/support/chromium-args.mjs): with the headless toolbar's
// omnibox popup WebUI (a renderer per window, which no test uses) and spare renderers (started ahead of a context's next
// navigation; chromium-args.mjs), Chromium's defaults, and without them. Each round launches one browser
// per variant, alternating, opens N contexts (default 6) with a small page each and keeps them open, then reads the
// CPU time (user + system, /proc) of every Chromium process by type. Prints each round and the medians (CPU is the
// figure to read on a loaded machine) with the load average.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { BASE_CHROMIUM_ARGS, CHROMIUM_ARGS } from "../demo/test/support/chromium-args.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const rounds = option("--rounds", 5);
const contextCount = option("--contexts", 6);
const TICKS_PER_SECOND = 100;

function processes() {
  const all = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      all.push({ pid: Number(name), ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** CPU seconds of each process under this one, by Chromium process type. */
function chromiumCpu() {
  const all = processes();
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const proc of all) if (!mine.has(proc.pid) && mine.has(proc.ppid)) (mine.add(proc.pid), (grew = true));
  }
  const byType = {};
  for (const proc of all) {
    if (proc.pid === process.pid || !mine.has(proc.pid)) continue;
    const type = (/--type=(\S+)/.exec(proc.cmdline)?.[1] ?? "browser") + (proc.cmdline.includes("--top-chrome-webui") ? " (toolbar WebUI)" : "");
    byType[type] = (byType[type] ?? 0) + proc.cpu;
  }
  return byType;
}

async function measure(launchArgs) {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: launchArgs });
  const before = Object.values(chromiumCpu()).reduce((a, b) => a + b, 0);
  const startedAt = performance.now();
  const contexts = [];
  for (let i = 0; i < contextCount; i++) {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.setContent("<main><h1>Hello</h1><button>Go</button></main>");
  }
  const wall = (performance.now() - startedAt) / 1000;
  const byType = chromiumCpu();
  const total = Object.values(byType).reduce((a, b) => a + b, 0) - before;
  await browser.close();
  return { wall, total, byType };
}

const variants = { "with the popup and spares": BASE_CHROMIUM_ARGS, "without them (CHROMIUM_ARGS)": CHROMIUM_ARGS };
const results = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 1; round <= rounds; round++) {
  for (const [name, launchArgs] of round % 2 ? Object.entries(variants) : Object.entries(variants).reverse()) {
    const load = loadavg()[0].toFixed(2);
    const result = await measure(launchArgs);
    results[name].push(result);
    const types = Object.entries(result.byType).map(([type, cpu]) => `${type} ${cpu.toFixed(2)}`).join(", ");
    console.log(`round ${round}\t${name}\t${contextCount} contexts: wall ${result.wall.toFixed(2)} s, Chromium CPU ${result.total.toFixed(2)} s\tload ${load}\t(${types})`);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
console.log(`\nmedian over ${rounds} rounds, ${contextCount} contexts:`);
for (const [name, list] of Object.entries(results)) {
  const cpu = median(list.map((r) => r.total));
  console.log(`  ${name}: Chromium CPU ${cpu.toFixed(2)} s (${(cpu / contextCount).toFixed(2)} s per context), wall ${median(list.map((r) => r.wall)).toFixed(2)} s`);
}
