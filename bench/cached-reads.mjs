#!/usr/bin/env node
// The cached read path alone: Latchkey's "current user" and "token refresh" scenarios (scenarios.mjs), a fixed
// number of requests each, reporting the server's CPU per answer (main thread and other threads, from /proc) and
// PostgreSQL's. CPU per answer is far less skewed by other work on the machine than req/s; with several
// `--root`s (other checkouts of the repository, e.g. `git archive <rev> | tar -x -C /tmp/base`) it runs them
// alternately, round after round, so that a before/after comparison is taken under the same conditions.
//
//   node bench/cached-reads.mjs [--requests 20000] [--rounds 3] [--connections 32] [--scenarios "current user"]
//                               [--root /tmp/base --root .] [--cpu-prof-dir /tmp/profiles]
//
// Needs `npm ci` at the root and a local PostgreSQL (BENCH_DATABASE_URL, as run.mjs); creates and drops
// `latchkey_bench_cached_reads_<n>`. With --cpu-prof-dir each server writes a V8 CPU profile when it stops.
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { childProcesses, databaseUrlOf, dropDatabases, freePort, installBenchDependencies, latchkeyEnv, optionReader, recreateDatabases, root, serverCommand, waitUntilUp, adminDatabaseUrl } from "./harness.mjs";

installBenchDependencies();
const { cpuSnapshot, threadsCpu } = await import("./cpu.mjs");
const { runLoad } = await import("./load.mjs");
const { SCENARIOS, createUsers, latchkey } = await import("./scenarios.mjs");

const argv = process.argv.slice(2);
const { text, number } = optionReader(argv, "cached-reads");
const options = {
  requests: number("requests", undefined, 20_000, { max: 1_000_000 }),
  rounds: number("rounds", undefined, 3, { max: 50 }),
  connections: number("connections", undefined, 32, { max: 1024 }),
  scenarios: (text("scenarios") ?? "current user,token refresh").split(",").map((s) => s.trim()),
  roots: argv.flatMap((a, i) => (a === "--root" ? [resolve(argv[i + 1])] : a.startsWith("--root=") ? [resolve(a.slice(7))] : [])),
  profileDir: text("cpu-prof-dir"),
  databaseUrl: adminDatabaseUrl("cached-reads"),
};
if (options.roots.length === 0) options.roots.push(root);
const scenarios = SCENARIOS.filter((s) => options.scenarios.includes(s.name));
const children = childProcesses((message) => fail(message));
let postmaster;
const databases = options.roots.map((_, i) => `latchkey_bench_cached_reads_${i}`);

for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => fail(`stopped by ${signal}`));

try {
  await main();
} catch (error) {
  await fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

async function main() {
  await recreateDatabases(options.databaseUrl, databases);
  postmaster = await postmasterPid();
  const servers = [];
  for (const [i, serverRoot] of options.roots.entries()) {
    const port = await freePort();
    const nodeArgs = options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : undefined; // undefined: BENCH_LATCHKEY_NODE_ARGS
    const [command, args] = await serverCommand(serverRoot, nodeArgs);
    const entry = children.start(`Latchkey ${serverRoot}`, command, args, latchkeyEnv({ databaseUrl: databaseUrlOf(options.databaseUrl, databases[i]), port }));
    const origin = `http://127.0.0.1:${port}`;
    servers.push({ root: serverRoot, origin, pid: entry.pid, results: new Map() });
  }
  for (const server of servers) {
    await waitUntilUp(`${server.origin}/health`);
    server.emails = await createUsers(latchkey, server.origin);
  }
  console.log(`cached reads: ${options.requests} requests per run, concurrency ${options.connections}, ${options.rounds} rounds; load average ${loadAverage()}`);
  for (let round = 0; round < options.rounds; round++) {
    for (const scenario of scenarios) {
      for (const server of servers) {
        const result = await measure(scenario, server);
        if (!server.results.has(scenario.name)) server.results.set(scenario.name, []);
        server.results.get(scenario.name).push(result);
        console.log(
          `  round ${round + 1} ${scenario.name.padEnd(13)} ${server.root}: ${result.cpu.toFixed(3)} ms CPU/answer (main ${result.main.toFixed(3)}, ` +
            `PostgreSQL ${result.postgres.toFixed(3)}), ${result.perSecond.toFixed(0)} req/s, ${result.errors} errors, load ${loadAverage()}`,
        );
      }
    }
  }
  console.log("\nmedians:");
  for (const scenario of scenarios) {
    for (const server of servers) {
      const runs = server.results.get(scenario.name);
      const median = (key) => [...runs.map((r) => r[key])].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
      console.log(
        `  ${scenario.name.padEnd(13)} ${server.root}: server CPU ${median("cpu").toFixed(3)} ms/answer (main thread ${median("main").toFixed(3)}), ` +
          `PostgreSQL ${median("postgres").toFixed(3)} ms/answer, ${median("perSecond").toFixed(0)} req/s`,
      );
    }
  }
  await children.stopAll();
  await dropDatabases(options.databaseUrl, databases);
}

async function measure(scenario, server) {
  const context = { origin: server.origin, emails: server.emails };
  const load = (requests, prepared) =>
    runLoad({ origin: server.origin, ...prepared, connections: options.connections, seconds: 600, maxRequests: requests });
  await load(Math.min(2_000, options.requests), await scenario.sides.latchkey(context));
  const prepared = await scenario.sides.latchkey(context);
  const postgresBefore = clusterCpu(postmaster);
  const before = cpuSnapshot();
  const threadsBefore = threadsCpu(server.pid);
  const result = await load(options.requests, prepared);
  const after = cpuSnapshot();
  const threadsAfter = threadsCpu(server.pid);
  const postgresAfter = clusterCpu(postmaster);
  const group = (snapshot) => snapshot.byGroup.get(server.pid) ?? 0;
  return {
    cpu: (group(after) - group(before)) / result.ok,
    main: (threadsAfter.main - threadsBefore.main) / result.ok,
    postgres: (postgresAfter - postgresBefore) / result.ok,
    perSecond: result.okPerSecond,
    errors: result.errors,
  };
}

function loadAverage() {
  return loadavg()[0].toFixed(1);
}

/** The postmaster of BENCH_DATABASE_URL's PostgreSQL: its backends' CPU is counted, not other clusters'. */
async function postmasterPid() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const backend = (await client.query("select pg_backend_pid() as pid")).rows[0].pid;
    return Number(statFields(backend)[1]);
  } finally {
    await client.end();
  }
}

function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU ms (user + system, 10 ms ticks) of the postmaster's children: this cluster's backends and workers. */
function clusterCpu(postmaster) {
  let ms = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = statFields(pid);
      if (Number(fields[1]) === postmaster || Number(pid) === postmaster) ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

async function fail(message) {
  console.error(`\ncached-reads failed: ${message}`);
  await children.stopAll().catch(() => {});
  process.exit(1);
}
