#!/usr/bin/env node
// Cold start: time from `npm start` to the first 200 from /api/v1, on an empty data dir and on a warm one
// (embedded PGlite). Usage: node bench/cold-start.mjs [runs=3]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 3);
const port = 18_302;

async function timeStart(dataDir) {
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
  await new Promise((r) => child.on("exit", r));
  return ms;
}

const results = { empty: [], warm: [] };
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-"));
  const dataDir = join(dir, "data");
  results.empty.push(await timeStart(dataDir));
  results.warm.push(await timeStart(dataDir));
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(results)) {
  console.log(`${name.padEnd(6)} data dir: median ${median(xs).toFixed(0)} ms  (runs: ${xs.map((x) => x.toFixed(0)).join(", ")})`);
}
