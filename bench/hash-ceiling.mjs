#!/usr/bin/env node
// The hash ceiling of password sign-in: argon2id verifications per second alone, nothing else. Sign-in is
// bound by the password hash by design, so `npm run bench` reports its sign-ins per second as a fraction of
// this (issue 17: target ≥ 90 %).
//
// "Alone" but otherwise as in the server: the verifications go through the server's own
// packages/server/src/crypto/passwords.ts (so its @node-rs/argon2 parameters and its slots, at most
// availableParallelism() at once, on libuv's thread pool), in a process started the way `npm run bench`
// starts the server (node --import tsx, source conditions, the same environment, so the same UV_THREADPOOL_SIZE), with
// `connections` verifications waiting at once, as the sign-in scenario keeps `connections` requests open.
//
//   node bench/hash-ceiling.mjs [--connections 32] [--warmup 2] [--duration 10]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { optionReader, root, sourceCommand } from "./harness.mjs";
import { PASSWORD } from "./scenarios.mjs";

const thisFile = fileURLToPath(import.meta.url);

/**
 * Runs the measurement in a fresh process; resolves to `{ perSecond, verifications, seconds, p50, p99,
 * cpuMsPerVerification, otherPercent, parameters, threadPoolSize, slots }`. `otherPercent`: the share of the
 * machine used meanwhile by processes outside `ourGroups` (process group ids), PostgreSQL and the measuring one.
 */
export function measureHashCeiling({ connections, warmup, seconds, ourGroups = [] }) {
  const [command, args] = sourceCommand(thisFile);
  args.push("--child", "--connections", String(connections), "--warmup", String(warmup), "--duration", String(seconds));
  args.push("--our-groups", [process.pid, ...ourGroups].join(","));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, (warmup + seconds + 120) * 1000);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line));
      else reject(new Error(`hash ceiling process exited (${signal ?? code}): ${(stderr || stdout).slice(-1000)}`));
    });
  });
}

export function describeCeiling(c) {
  return (
    `${c.perSecond.toFixed(1)} argon2id verifications/s alone (${c.parameters}, ${c.slots} at once on a thread pool of ${c.threadPoolSize}, ` +
    `${c.connections} waiting), p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms, CPU ${c.cpuMsPerVerification.toFixed(2)} ms per verification, ` +
    `other CPU ${c.otherPercent.toFixed(0)} %`
  );
}

/** In the child: verifies with the server's code until the time is up, prints one JSON line. */
async function child({ connections, warmup, seconds, ourGroups }) {
  const { cpuBetween, cpuSnapshot } = await import("./cpu.mjs");
  const passwords = await import(new URL("../packages/server/src/crypto/passwords.ts", import.meta.url).href);
  const { availableParallelism } = await import("node:os");
  const hash = await passwords.hashPassword(PASSWORD);
  if (passwords.needsRehash(hash)) throw new Error(`the server's hash ${hash.slice(0, 40)} is not of its own parameters`);

  const run = async (forSeconds) => {
    const latencies = [];
    const deadline = performance.now() + forSeconds * 1000;
    const cpuBefore = process.cpuUsage();
    const machineBefore = cpuSnapshot();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          if (!(await passwords.verifyPassword(PASSWORD, hash))) throw new Error("verification failed");
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const { otherPercent } = cpuBetween(machineBefore, cpuSnapshot(), 0, ourGroups);
    latencies.sort((a, b) => a - b);
    const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    return { verifications: latencies.length, seconds: elapsed, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), cpuMsPerVerification: (cpu.user + cpu.system) / 1000 / latencies.length, otherPercent };
  };
  if (warmup > 0) await run(warmup);
  const result = await run(seconds);
  const [, , , m, t, p] = /^\$(argon2\w+)\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash) ?? [];
  console.log(
    JSON.stringify({
      ...result,
      connections,
      parameters: `argon2id m=${Math.round(Number(m) / 1024)} MiB t=${t} p=${p}`,
      threadPoolSize: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
      slots: availableParallelism(),
    }),
  );
}

if (process.argv[1] === thisFile) {
  const { number, text } = optionReader(undefined, "hash-ceiling");
  const options = {
    connections: number("connections", "BENCH_CONNECTIONS", 32, { max: 1024 }),
    warmup: number("warmup", "BENCH_WARMUP", 2, { min: 0, max: 60 }),
    seconds: number("duration", "BENCH_DURATION", 10, { max: 600 }),
    ourGroups: (text("our-groups") ?? "").split(",").filter(Boolean).map(Number),
  };
  if (process.argv.includes("--child")) {
    await child(options);
  } else {
    const result = await measureHashCeiling(options);
    console.log(`Hash ceiling: ${describeCeiling(result)}`);
  }
}
