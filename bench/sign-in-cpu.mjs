#!/usr/bin/env node
// What a password sign-in costs beside the hash, Latchkey alone (issue 35): the CPU per sign-in of the server's
// main thread, of its other threads (the argon2id hash on libuv's pool, V8's GC and compiler), of the PostgreSQL
// backends of its database, and the statements a sign-in runs (from pg_stat_statements when the PostgreSQL server
// preloads it), on a fresh database, at a fixed concurrency for a fixed time, alternating `--runs` measured runs.
// CPU time, not req/s: a loaded machine changes how fast sign-ins go much more than what each costs. With several
// `--root`s (other checkouts of the repository, e.g. `git archive <rev> | tar -x -C /tmp/base`, node_modules linked)
// each runs its own server on its own database and the runs alternate between them, so that a before/after
// comparison is taken under the same conditions.
//
//   node bench/sign-in-cpu.mjs [--duration 10] [--warmup 2] [--connections 32] [--runs 3] [--root /tmp/base --root .]
//                              [--stub-hash [ms]]
//
// --stub-hash: the servers' argon2id verifications answer at once (or after `ms`) without hashing (hash-stub.mjs): the
// work beside the hash alone, at the rate the main thread allows, for profiles and before/after comparisons of that
// work that the hash's CPU (two cores' worth) would drown. Not a sign-in's real cost: see README.
//
// BENCH_DATABASE_URL (an admin URL of a local PostgreSQL) and BENCH_LATCHKEY_NODE_ARGS (e.g. "--cpu-prof
// --cpu-prof-dir=/tmp/p"; then `node bench/profile-summary.mjs <profile> --per <sign-ins>`) as for `npm run bench`.
// For statement counts, a throwaway PostgreSQL with `shared_preload_libraries=pg_stat_statements` (README).
import { loadavg } from "node:os";
import { resolve } from "node:path";
import {
  adminDatabaseUrl,
  childProcesses,
  databaseUrlOf,
  dropDatabases,
  freePort,
  installBenchDependencies,
  latchkeyEnv,
  optionReader,
  recreateDatabases,
  root,
  serverCommand,
  waitUntilUp,
} from "./harness.mjs";

const argv = process.argv.slice(2);
const { number } = optionReader(argv, "sign-in-cpu");
const options = {
  duration: number("duration", "BENCH_DURATION", 10, { max: 600 }),
  warmup: number("warmup", "BENCH_WARMUP", 2, { min: 0, max: 60 }),
  connections: number("connections", "BENCH_CONNECTIONS", 32, { max: 1024 }),
  runs: number("runs", undefined, 3, { max: 20 }),
  stubHash: argv.findIndex((a) => a === "--stub-hash" || a.startsWith("--stub-hash=")),
  roots: argv.flatMap((a, i) => (a === "--root" ? [resolve(argv[i + 1])] : a.startsWith("--root=") ? [resolve(a.slice(7))] : [])),
};
if (options.roots.length === 0) options.roots.push(root);
// The stub's delay: `--stub-hash=5`, `--stub-hash 5`, or none (0).
const stubDelay =
  options.stubHash < 0 ? undefined : argv[options.stubHash].includes("=") ? Number(argv[options.stubHash].split("=")[1]) : /^\d+$/.test(argv[options.stubHash + 1] ?? "") ? Number(argv[options.stubHash + 1]) : 0;
const nodeArgs = [
  ...(process.env.BENCH_LATCHKEY_NODE_ARGS ?? "").split(/\s+/).filter(Boolean),
  ...(stubDelay === undefined ? [] : ["--import", new URL("hash-stub.mjs", import.meta.url).pathname]),
];
installBenchDependencies();
const { default: pg } = await import("pg");
const { cpuSnapshot, postgresBackendsBetween, threadsCpu } = await import("./cpu.mjs");
const { runLoad } = await import("./load.mjs");
const { SCENARIOS, createUsers, latchkey } = await import("./scenarios.mjs");

const DATABASES = options.roots.map((_, i) => (i === 0 ? "latchkey_bench_sign_in_cpu" : `latchkey_bench_sign_in_cpu_${i}`));
const adminUrl = adminDatabaseUrl("sign-in-cpu");
const children = childProcesses((message) => fail(message));
const scenario = SCENARIOS.find((s) => s.name === "sign-in");
setTimeout(() => fail("ran longer than its budget"), (300 + options.roots.length * options.runs * (options.warmup + options.duration + 20)) * 1000).unref();

try {
  await main();
} catch (error) {
  await fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

async function main() {
  const pgVersion = await recreateDatabases(adminUrl, DATABASES);
  const servers = [];
  for (const [i, serverRoot] of options.roots.entries()) {
    const database = DATABASES[i];
    const databaseUrl = databaseUrlOf(adminUrl, database);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const [command, args] = await serverCommand(serverRoot, nodeArgs);
    const env = { ...latchkeyEnv({ databaseUrl, port }), ...(stubDelay === undefined ? {} : { BENCH_HASH_STUB_MS: String(stubDelay) }) };
    const server = children.start(options.roots.length > 1 ? `Latchkey ${serverRoot}` : "Latchkey", command, args, env);
    await waitUntilUp(`${origin}/health`);
    const emails = await createUsers(latchkey, origin);
    servers.push({ root: serverRoot, database, origin, pid: server.pid, emails, statements: await statementStats(databaseUrl), rows: [], first: true });
  }
  console.log(
    `sign-in CPU, Latchkey alone${stubDelay === undefined ? "" : `, argon2id verification STUBBED (answers after ${stubDelay} ms, no hashing: the work beside the hash only)`}: PostgreSQL ${pgVersion}, concurrency ${options.connections}, ${options.warmup} s warm-up + ${options.duration} s measured, ${options.runs} runs${servers.length > 1 ? ` of each of ${servers.length} checkouts, alternated` : ""}; ` +
      `load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}${servers[0].statements.available ? "" : "; no pg_stat_statements on this server: no statement counts"}`,
  );
  const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : "-");
  for (let run = 1; run <= options.runs; run++) {
    for (const server of servers) {
      const { origin, emails, statements } = server;
      const load = async (seconds) => runLoad({ origin, ...(await scenario.sides.latchkey({ origin, emails })), connections: options.connections, seconds, maxRequests: 100_000 });
      if (server.first || options.warmup > 0) await settle(await load(server.first ? Math.max(2, options.warmup) : options.warmup));
      server.first = false;
      await statements.reset();
      const sessionsBefore = await statements.sessions();
      const before = cpuSnapshot();
      const threadsBefore = threadsCpu(server.pid);
      const result = await load(options.duration);
      const threadsAfter = threadsCpu(server.pid);
      const after = cpuSnapshot();
      await settle(result);
      const calls = await statements.read();
      // Sign-ins the server finished, counting those still in flight when the load stopped (their statements count too).
      const finished = (await statements.sessions()) - sessionsBefore;
      const row = {
        run,
        signIns: result.ok,
        errors: result.errors,
        perSecond: result.okPerSecond,
        main: (threadsAfter.main - threadsBefore.main) / result.ok,
        mainSystem: (threadsAfter.mainSystem - threadsBefore.mainSystem) / result.ok,
        others: (threadsAfter.others - threadsBefore.others) / result.ok,
        backends: postgresBackendsBetween(before, after, server.database) / result.ok,
        postgres: (after.postgres - before.postgres) / result.ok,
        statements: calls ? calls.total / finished : NaN,
        finished,
        load: loadavg()[0],
        detail: calls?.byStatement,
      };
      server.rows.push(row);
      console.log(
        `  run ${run}${servers.length > 1 ? ` ${server.root}` : ""}: ${row.signIns} sign-ins (${row.perSecond.toFixed(1)}/s, ${row.errors} errors); CPU per sign-in: main thread ${ms(row.main)} ms (in the kernel ${ms(row.mainSystem)} ms), other threads ${ms(row.others)} ms, ` +
          `PostgreSQL backends ${ms(row.backends)} ms (all postgres processes ${ms(row.postgres)} ms); statements per sign-in ${ms(row.statements)}; load ${row.load.toFixed(1)}`,
      );
    }
  }
  for (const server of servers) {
    const { rows } = server;
    const median = (key) => {
      const values = rows.map((r) => r[key]).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)];
    };
    console.log(
      `median of ${rows.length}${servers.length > 1 ? ` ${server.root}` : ""}: main thread ${ms(median("main"))} ms (in the kernel ${ms(median("mainSystem"))} ms), other threads ${ms(median("others"))} ms, PostgreSQL backends ${ms(median("backends"))} ms, statements ${ms(median("statements"))} per sign-in`,
    );
    const last = rows.at(-1)?.detail;
    if (last) {
      console.log(`statements of the last run, per sign-in finished (calls, mean ms of execution):`);
      for (const s of last) console.log(`  ${(s.calls / rows.at(-1).finished).toFixed(2).padStart(6)}  ${s.mean.toFixed(3).padStart(7)} ms  ${s.query}`);
    }
    await server.statements.end();
  }
  await children.stopAll();
  if (process.env.BENCH_KEEP_DATABASES !== "1") await dropDatabases(adminUrl, DATABASES);
}

/** pg_stat_statements of the bench's database, when the server has it. */
async function statementStats(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let available = true;
  try {
    await client.query("create extension if not exists pg_stat_statements");
    await client.query("select 1 from pg_stat_statements limit 1");
  } catch {
    available = false;
  }
  const ours = "dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'";
  return {
    available,
    reset: async () => {
      if (available) await client.query("select pg_stat_statements_reset()");
    },
    read: async () => {
      if (!available) return undefined;
      const { rows } = await client.query(
        `select calls::int, mean_exec_time::float8 as mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query from pg_stat_statements where ${ours} order by calls desc`,
      );
      // Heartbeats of the change feed and other once-a-second work are counted too: a few per run.
      return { total: rows.reduce((sum, r) => sum + r.calls, 0), byStatement: rows.filter((r) => r.calls >= 5) };
    },
    sessions: async () => Number((await client.query("select count(*)::int as n from sessions")).rows[0].n),
    end: () => client.end(),
  };
}

function settle(result) {
  return new Promise((r) => setTimeout(r, Math.min(15_000, 500 + 1.5 * (Number.isFinite(result.p99) ? result.p99 : 0))));
}

async function fail(message) {
  console.error(`\nsign-in-cpu failed: ${message}`);
  await children.stopAll().catch(() => {});
  process.exit(1);
}
