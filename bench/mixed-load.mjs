#!/usr/bin/env node
// A mixed load on Latchkey (issue 17 "Performance under load"): sign-in, current user, refresh, team reads and
// writes in fixed proportions against one server on a fresh local PostgreSQL database, for 5 minutes by
// default. Reports per operation ok answers per second, p50/p99 and errors (5xx counted apart: the target is
// none), and the server's resident memory sampled from /proc, with the slope after the warm-up ("flat
// after warm-up"). With `--processes 2` it then runs the same load on two server processes sharing one
// database, connections split between them round-robin, and prints both runs side by side.
// Not part of `npm test` (STYLE.md §9).
//
//   node bench/mixed-load.mjs [--duration 300] [--connections 32] [--processes 1|2] [--sample-every 5]
//                             [--memory-warmup 60] [--mix sign-in=2,current-user=40,…]
//
// BENCH_DATABASE_URL: an admin URL of a local PostgreSQL (default postgres://postgres:postgres@127.0.0.1:5432/postgres);
// the database latchkey_bench_mixed is created for each run and dropped after it (kept with BENCH_KEEP_DATABASES=1).
import { cpus } from "node:os";
import {
  adminDatabaseUrl,
  childProcesses,
  databaseUrlOf,
  dropDatabases,
  freePort,
  installBenchDependencies,
  optionReader,
  recreateDatabases,
  startLatchkey,
  waitUntilUp,
} from "./harness.mjs";

const DATABASE = "latchkey_bench_mixed";
/** Users whose sessions, profile and personal team the reads and most writes use. */
const READER_COUNT = 64;
/** Users who create the teams, apart from the readers so that the readers' team lists keep their size. */
const CREATOR_COUNT = 8;
/** Untimed load before each measured run, so the first JIT compilations and cache fills are not measured. */
const WARMUP_LOAD_SECONDS = 10;

/** Share of the requests per operation, out of their sum (per 100 by default). */
const DEFAULT_MIX = {
  "sign-in": 2,
  "current-user": 40,
  refresh: 20,
  "team-list": 10,
  "team-read": 10,
  "user-update": 12,
  "team-update": 4,
  "team-create": 2,
};

const options = readOptions();
installBenchDependencies();
const { cpuBetween, cpuSnapshot } = await import("./cpu.mjs");
const { percentileOf, runLoad } = await import("./load.mjs");
const { sampleRss, slopePerMinute } = await import("./memory.mjs");
const { LATCHKEY_CLIENT_HEADERS, PASSWORD, createUsers, fetchOk, forEachLimited, latchkey } = await import("./scenarios.mjs");

let failing = false;
let children;
const budgetSeconds = 300 + (options.processes === 2 ? 2 : 1) * (options.duration + WARMUP_LOAD_SECONDS + 180);
setTimeout(() => fail(`the bench ran longer than its ${budgetSeconds} s budget`), budgetSeconds * 1000).unref();
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => fail(`stopped by ${signal}`));

try {
  const runs = [await run(1)];
  if (options.processes === 2) runs.push(await run(2));
  if (runs.length === 2) printComparison(runs);
} catch (error) {
  await fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

/** One measured run on `processCount` server processes sharing a fresh database. */
async function run(processCount) {
  const pgVersion = await recreateDatabases(options.databaseUrl, [DATABASE]);
  children = childProcesses(fail);
  const servers = [];
  const ports = [];
  for (let i = 0; i < processCount; i++) ports.push(await freePort());
  for (const [i, port] of ports.entries()) {
    // One public URL for all, as behind a load balancer: every process accepts the others' access tokens.
    const entry = await startLatchkey(children, `Latchkey ${i + 1}`, { databaseUrl: databaseUrlOf(options.databaseUrl, DATABASE), port, publicUrl: `http://127.0.0.1:${ports[0]}` });
    servers.push({ origin: `http://127.0.0.1:${port}`, pid: entry.pid });
  }
  // One at a time: the first one migrates the fresh database.
  for (const server of servers) await waitUntilUp(`${server.origin}/health`);

  const state = await prepare(servers[0].origin);
  const next = requestSequence(state);
  const load = (seconds) =>
    Promise.all(
      servers.map((server, i) =>
        runLoad({
          origin: server.origin,
          next,
          check: () => false, // every request brings its own check
          // Connections round-robin over the processes, as a load balancer would hand them out.
          connections: Math.floor(options.connections / processCount) + (i < options.connections % processCount ? 1 : 0),
          seconds,
          maxRequests: Math.max(100_000, seconds * 10_000),
        }),
      ),
    );

  console.log(`\n${processCount} process${processCount > 1 ? "es" : ""}: ${WARMUP_LOAD_SECONDS} s warm-up load, then ${options.duration} s measured…`);
  await load(WARMUP_LOAD_SECONDS);
  // Each server is the leader of its own process group (harness.mjs), so its pid is also the group's id.
  const ourGroups = servers.map((s) => s.pid);
  const memory = sampleRss(ourGroups, options.sampleEvery);
  const cpuBefore = cpuSnapshot();
  const results = await load(options.duration);
  const cpuAfter = cpuSnapshot();
  const samples = memory.stop();
  const cpu = ourGroups.map((group) => cpuBetween(cpuBefore, cpuAfter, group, ourGroups));
  await children.stopAll();
  if (!options.keepDatabases) await dropDatabases(options.databaseUrl, [DATABASE]);

  const summary = summarize(results, cpu, samples);
  printRun({ processCount, pgVersion, summary, samples });
  return { processCount, summary };
}

/** Users, their sessions and teams, made through the API before the timed runs. */
async function prepare(origin) {
  const readerEmails = await createUsers(latchkey, origin);
  if (readerEmails.length !== READER_COUNT) throw new Error(`expected ${READER_COUNT} bench users, got ${readerEmails.length}`);
  const creatorEmails = Array.from({ length: CREATOR_COUNT }, (_, i) => `creator-${Date.now().toString(36)}-${i}@bench.example.com`);
  await forEachLimited(creatorEmails, 8, (email) => latchkey.signUp(origin, email));
  const readers = await forEachLimited(readerEmails, 8, async (email) => {
    const session = await latchkey.signIn(origin, email);
    // The internal project gives every user a personal team on sign-up (services/seed.ts).
    const { text } = await fetchOk(`${origin}/api/v1/teams?user_id=me`, { headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": session.accessToken } });
    const teamId = JSON.parse(text).items[0]?.id;
    if (!teamId) throw new Error(`${email} has no personal team`);
    return { email, ...session, teamId };
  });
  const creators = await forEachLimited(creatorEmails, 8, (email) => latchkey.signIn(origin, email));
  return { readers, creators };
}

/**
 * `next()` for runLoad: the operations in the mix's proportions, spread evenly over each cycle (smooth
 * weighted round-robin), each request with its own check.
 */
function requestSequence({ readers, creators }) {
  const cycle = weightedCycle(options.mix);
  let position = 0;
  let counter = 0;
  const reader = roundRobin(readers);
  const creator = roundRobin(creators);
  const signInEmail = roundRobin(readers.map((r) => r.email));
  const json = { "content-type": "application/json" };
  const asUser = (session) => ({ ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": session.accessToken });
  const has = (text) => (_status, body) => body.includes(text);

  const build = {
    "sign-in": () => ({
      method: "POST",
      path: "/api/v1/auth/password/sign-in",
      headers: { ...LATCHKEY_CLIENT_HEADERS, ...json },
      body: JSON.stringify({ email: signInEmail(), password: PASSWORD }),
      check: has('"access_token"'),
    }),
    "current-user": () => ({ method: "GET", path: "/api/v1/users/me", headers: asUser(reader()), check: has('"primary_email"') }),
    refresh: () => {
      const session = reader();
      return {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-refresh-token": session.refreshToken },
        check: has('"access_token"'),
        // Later requests use the new access token, as a client would.
        onOk: (body) => (session.accessToken = JSON.parse(body).access_token),
      };
    },
    "team-list": () => ({ method: "GET", path: "/api/v1/teams?user_id=me", headers: asUser(reader()), check: has('"items":[{') }),
    "team-read": () => {
      const session = reader();
      return { method: "GET", path: `/api/v1/teams/${session.teamId}`, headers: asUser(session), check: has(`"id":"${session.teamId}"`) };
    },
    "user-update": () => ({
      method: "PATCH",
      path: "/api/v1/users/me",
      headers: { ...asUser(reader()), ...json },
      body: JSON.stringify({ client_metadata: { bench: counter++ } }),
      check: has('"client_metadata"'),
    }),
    "team-update": () => {
      const session = reader();
      return {
        method: "PATCH",
        path: `/api/v1/teams/${session.teamId}`,
        headers: { ...asUser(session), ...json },
        body: JSON.stringify({ client_metadata: { bench: counter++ } }),
        check: has(`"id":"${session.teamId}"`),
      };
    },
    "team-create": () => ({
      method: "POST",
      path: "/api/v1/teams",
      headers: { ...asUser(creator()), ...json },
      body: JSON.stringify({ display_name: `Bench team ${counter++}`, creator_user_id: "me" }),
      check: has('"display_name":"Bench team'),
    }),
  };
  return () => {
    const op = cycle[position++ % cycle.length];
    return { op, ...build[op]() };
  };
}

/** Each key `weight` times per cycle, spread out: nginx's smooth weighted round-robin. */
function weightedCycle(weights) {
  const entries = Object.entries(weights).filter(([, w]) => w > 0);
  const total = entries.reduce((s, [, w]) => s + w, 0);
  const current = new Map(entries.map(([k]) => [k, 0]));
  const cycle = [];
  for (let i = 0; i < total; i++) {
    for (const [k, w] of entries) current.set(k, current.get(k) + w);
    const [best] = [...current.entries()].reduce((a, b) => (b[1] > a[1] ? b : a));
    current.set(best, current.get(best) - total);
    cycle.push(best);
  }
  return cycle;
}

function roundRobin(items) {
  let i = 0;
  return () => items[i++ % items.length];
}

/** Merges the load runs of every process: per operation and in all. */
function summarize(results, cpu, samples) {
  const seconds = Math.max(...results.map((r) => r.seconds));
  const operations = Object.keys(options.mix).filter((op) => options.mix[op] > 0);
  const total = Object.values(options.mix).reduce((s, w) => s + w, 0);
  const perOperation = operations.map((op) => {
    const parts = results.map((r) => r.byOperation[op] ?? { ok: 0, errors: 0, serverErrors: 0, latencies: [] });
    const latencies = Float64Array.from(parts.flatMap((p) => p.latencies)).sort();
    const ok = parts.reduce((s, p) => s + p.ok, 0);
    return {
      op,
      share: (100 * options.mix[op]) / total,
      ok,
      okPerSecond: ok / seconds,
      p50: percentileOf(latencies, 50),
      p99: percentileOf(latencies, 99),
      errors: parts.reduce((s, p) => s + p.errors, 0),
      serverErrors: parts.reduce((s, p) => s + p.serverErrors, 0),
    };
  });
  const all = Float64Array.from(results.flatMap((r) => Object.values(r.byOperation).flatMap((p) => p.latencies))).sort();
  const ok = perOperation.reduce((s, o) => s + o.ok, 0);
  const serverMs = cpu.reduce((s, c) => s + c.serverMs, 0);
  // Time after the memory warm-up; the slope of each process's RSS over it.
  const after = samples.filter((s) => s.seconds >= options.memoryWarmup);
  const slopes = (samples[0]?.mib ?? []).map((_, i) =>
    slopePerMinute(
      after.map((s) => s.seconds),
      after.map((s) => s.mib[i]),
    ),
  );
  return {
    seconds,
    perOperation,
    all: {
      ok,
      okPerSecond: ok / seconds,
      p50: percentileOf(all, 50),
      p99: percentileOf(all, 99),
      errors: perOperation.reduce((s, o) => s + o.errors, 0),
      serverErrors: results.reduce((s, r) => s + r.serverErrors, 0),
      socketErrors: results.reduce((s, r) => s + r.socketErrors, 0),
    },
    cpuMsPerOk: serverMs / ok,
    otherPercent: Math.max(...cpu.map((c) => c.otherPercent)),
    slopes,
    samplesAfterWarmup: after.length,
    errorSamples: results.flatMap((r) => r.samples),
  };
}

function printRun({ processCount, pgVersion, summary, samples }) {
  const n = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
  console.log(
    `\nMixed load on ${processCount} Latchkey process${processCount > 1 ? "es" : ""}, PostgreSQL ${pgVersion} (127.0.0.1), ${cpus().length} cores, Node ${process.version}; ` +
      `${options.connections} connections, ${n(summary.seconds, 0)} s measured`,
  );
  const header = ["operation", "share %", "ok/s", "p50 ms", "p99 ms", "errors", "5xx"];
  const lines = [
    ...summary.perOperation.map((o) => [o.op, n(o.share, 0), n(o.okPerSecond, 1), n(o.p50, 1), n(o.p99, 1), String(o.errors), String(o.serverErrors)]),
    ["all", "100", n(summary.all.okPerSecond, 1), n(summary.all.p50, 1), n(summary.all.p99, 1), String(summary.all.errors), String(summary.all.serverErrors)],
  ];
  printTable(header, lines);
  console.log(`server CPU ${n(summary.cpuMsPerOk, 2)} ms per ok answer (PostgreSQL's not included); other CPU ${n(summary.otherPercent, 0)} % of the machine`);
  if (summary.all.socketErrors) console.log(`socket errors/time-outs: ${summary.all.socketErrors}`);
  for (const sample of summary.errorSamples) console.log(`  error: ${sample.replace(/\s+/g, " ")}`);

  samples[0].mib.forEach((_, i) => {
    const series = samples.map((s) => n(s.mib[i], 0)).join(" ");
    console.log(`RSS of process ${i + 1}, MiB, every ${options.sampleEvery} s: ${series}`);
    const slope = summary.slopes[i];
    console.log(
      `  after the first ${options.memoryWarmup} s (${summary.samplesAfterWarmup} samples): ${Number.isFinite(slope) ? `${slope >= 0 ? "+" : ""}${slope.toFixed(2)} MiB/min` : "too few samples for a slope"}`,
    );
  });
}

function printComparison([one, two]) {
  const n = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
  console.log("\nOne process against two on the same database (same load, same connections):");
  const header = ["operation", "1 process ok/s", "p99 ms", "2 processes ok/s", "p99 ms", "ok/s 2÷1"];
  const rows = [...one.summary.perOperation.map((o, i) => [o, two.summary.perOperation[i]]), [one.summary.all, two.summary.all]];
  const lines = rows.map(([a, b], i) => [
    i === rows.length - 1 ? "all" : a.op,
    n(a.okPerSecond, 1),
    n(a.p99, 1),
    n(b.okPerSecond, 1),
    n(b.p99, 1),
    a.okPerSecond > 0 ? `${(b.okPerSecond / a.okPerSecond).toFixed(2)}×` : "-",
  ]);
  printTable(header, lines);
}

function printTable(header, lines) {
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const format = (cells) => cells.map((cell, c) => (c < 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  console.log(`${format(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const line of lines) console.log(format(line));
}

function readOptions() {
  const { text, number } = optionReader(undefined, "mixed-load");
  const duration = number("duration", "BENCH_DURATION", 300, { max: 3600 });
  const mix = { ...DEFAULT_MIX };
  for (const part of (text("mix") ?? "").split(",").filter(Boolean)) {
    const [name, weight] = part.split("=");
    if (!(name in DEFAULT_MIX) || !(Number(weight) >= 0)) {
      console.error(`mixed-load: --mix takes name=weight pairs with names among ${Object.keys(DEFAULT_MIX).join(", ")}; got ${part}`);
      process.exit(2);
    }
    mix[name] = Number(weight);
  }
  return {
    duration,
    connections: number("connections", "BENCH_CONNECTIONS", 32, { min: 2, max: 1024 }),
    processes: number("processes", undefined, 1, { max: 2 }),
    sampleEvery: number("sample-every", undefined, 5, { max: 60 }),
    memoryWarmup: number("memory-warmup", undefined, Math.min(60, Math.round(duration / 3)), { min: 0, max: 3600 }),
    mix,
    databaseUrl: adminDatabaseUrl("mixed-load"),
    keepDatabases: process.env.BENCH_KEEP_DATABASES === "1",
  };
}

async function fail(message) {
  if (failing) return;
  failing = true;
  console.error(`\nmixed-load failed: ${message}`);
  await children?.stopAll().catch(() => {});
  process.exit(1);
}
