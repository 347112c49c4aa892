#!/usr/bin/env node
// `npm run bench`: Latchkey against Better Auth on the same PostgreSQL, side by side on this machine.
// Creates two fresh databases, migrates and starts both servers on 127.0.0.1, drives each scenario of
// scenarios.mjs on each server at a fixed concurrency for a fixed time, prints a table, stops both servers
// and drops the databases. Not part of `npm test` (STYLE.md §9: benchmarks never run in timed tests).
//
//   npm run bench [-- --duration 10 --warmup 2 --connections 32 --max-requests 100000 --scenarios sign-in,refresh]
//
// Options also come from the environment: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS,
// BENCH_MAX_REQUESTS, BENCH_SCENARIOS, BENCH_DATABASE_URL (an admin URL of a local PostgreSQL, default
// postgres://postgres:postgres@127.0.0.1:5432/postgres) and BENCH_KEEP_DATABASES=1.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import {
  adminDatabaseUrl,
  benchDir,
  childProcesses,
  databaseUrlOf,
  dropDatabases,
  freePort,
  installBenchDependencies,
  optionReader,
  recreateDatabases,
  root,
  startLatchkey,
  waitUntilUp,
} from "./harness.mjs";

const options = readOptions();
installBenchDependencies();
const { default: pg } = await import("pg");
const { COOKIE_CACHE_SECONDS, betterAuthOptions } = await import("./better-auth-server.mjs");
const { getMigrations } = await import("better-auth/db/migration");
const { cpuBetween, cpuSnapshot, postgresBackendsBetween, threadsCpu } = await import("./cpu.mjs");
const { runLoad } = await import("./load.mjs");
const { SCENARIOS, betterAuth, createUsers, latchkey } = await import("./scenarios.mjs");
const { describeCeiling, measureHashCeiling } = await import("./hash-ceiling.mjs");

const DATABASES = { latchkey: "latchkey_bench_latchkey", betterAuth: "latchkey_bench_better_auth" };
const children = childProcesses(fail);
const QUIET_PERCENT = 15;
let failing = false;

// The whole bench is bounded: past this, whatever is still running is stopped and the bench fails.
const scenarios = SCENARIOS.filter((s) => !options.scenarios || options.scenarios.some((name) => s.name.includes(name)));
const budgetSeconds = 300 + scenarios.length * 2 * (options.warmup + options.duration + 90);
setTimeout(() => fail(`the bench ran longer than its ${budgetSeconds} s budget`), budgetSeconds * 1000).unref();
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => fail(`stopped by ${signal}`));

try {
  await main();
} catch (error) {
  await fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

async function main() {
  const pgVersion = await recreateDatabases(options.databaseUrl, Object.values(DATABASES));
  const urlOf = (database) => databaseUrlOf(options.databaseUrl, database);

  const [latchkeyPort, betterAuthPort] = [await freePort(), await freePort()];
  const origins = { latchkey: `http://127.0.0.1:${latchkeyPort}`, betterAuth: `http://127.0.0.1:${betterAuthPort}` };

  const migrationOptions = betterAuthOptions({ databaseUrl: urlOf(DATABASES.betterAuth), baseURL: origins.betterAuth });
  await (await getMigrations(migrationOptions)).runMigrations();
  await migrationOptions.database.end();

  const groups = {};
  groups.latchkey = (await startLatchkey(children, "Latchkey", { databaseUrl: urlOf(DATABASES.latchkey), port: latchkeyPort })).pid;
  groups.betterAuth = children.start("Better Auth", process.execPath, [join(benchDir, "better-auth-server.mjs")], {
    BENCH_BA_DATABASE_URL: urlOf(DATABASES.betterAuth),
    BENCH_BA_PORT: String(betterAuthPort),
  }).pid;
  await Promise.all([waitUntilUp(`${origins.latchkey}/health`), waitUntilUp(`${origins.betterAuth}/api/auth/ok`)]);

  // Users for sign-in, current user and refresh. Latchkey may not have every route yet: its side then
  // reports errors instead of stopping the bench.
  const emails = { betterAuth: await createUsers(betterAuth, origins.betterAuth) };
  emails.latchkey = await createUsers(latchkey, origins.latchkey).catch((error) => {
    console.error(`Latchkey: could not create the bench users (${error.message}); its runs will show the errors.`);
    return ["nobody@bench.example.com"];
  });

  printHeader({ pgVersion, hashes: await storedPasswordHashes(urlOf) });

  const rows = [];
  let ceiling;
  for (const scenario of scenarios) {
    for (const [side, server] of [["latchkey", latchkey], ["betterAuth", betterAuth]]) {
      const origin = origins[side];
      const result = await measure(scenario, side, { origin, emails: emails[side], group: groups[side], ourGroups: Object.values(groups), database: DATABASES[side] });
      rows.push({ scenario: scenario.name, server: server.name, ...result });
      const waited = result.waitedForQuiet > 1.5 ? ` (waited ${result.waitedForQuiet.toFixed(0)} s for other processes to quiet down)` : "";
      console.log(`  ${scenario.name} / ${server.name}: ${result.failed ?? `${result.okPerSecond.toFixed(1)} req/s, ${result.errors} errors${waited}`}`);
    }
    if (scenario.name === "sign-in") ceiling = await measureCeiling(Object.values(groups));
  }
  printTable(rows);
  if (ceiling) printCeiling(ceiling, rows.find((row) => row.scenario === "sign-in" && row.server === latchkey.name));
  await children.stopAll();
  if (!options.keepDatabases) await dropDatabases(options.databaseUrl, Object.values(DATABASES));
}

/**
 * Sign-in is bound by the password hash by design; its ceiling is argon2id verifications alone, with the
 * server's own hashing code, parameters and thread pool, at the sign-in scenario's concurrency, in a
 * process started like the server while both servers idle.
 */
async function measureCeiling(ourGroups) {
  try {
    const waitedForQuiet = await waitForQuiet(ourGroups);
    return { ...(await measureHashCeiling({ connections: options.connections, warmup: options.warmup, seconds: options.duration, ourGroups })), waitedForQuiet };
  } catch (error) {
    return { failed: error.message.slice(0, 500) };
  }
}

function printCeiling(ceiling, signIn) {
  console.log("\nHash ceiling (Latchkey sign-in):");
  if (ceiling.failed) return console.log(`  could not measure: ${ceiling.failed}`);
  console.log(`  ${describeCeiling(ceiling)}`);
  if (!signIn || signIn.failed || !(signIn.okPerSecond > 0)) return console.log("  (no sign-in figure to compare)");
  const percent = (100 * signIn.okPerSecond) / ceiling.perSecond;
  console.log(
    `  sign-in at ${percent.toFixed(0)} % of the hash ceiling: ${signIn.okPerSecond.toFixed(1)} sign-ins/s against ${ceiling.perSecond.toFixed(1)} verifications/s (target ≥ 90 %);`,
  );
  // CPU per operation is much less skewed by other work on the machine than operations per second: on two
  // cores both busy hashing, every other ms of CPU a sign-in costs (here or in PostgreSQL) is taken from hashing.
  const ms = (x) => x.toFixed(2);
  console.log(
    `  CPU per sign-in: server ${ms(signIn.cpuMsPerOk)} ms (main thread ${ms(signIn.mainThreadMsPerOk)}, thread pool and V8 threads ${ms(signIn.otherThreadsMsPerOk)}), ` +
      `PostgreSQL ${ms(signIn.postgresMsPerOk)} ms (its database's backends ${ms(signIn.postgresBackendsMsPerOk)}); one verification alone ${ms(ceiling.cpuMsPerVerification)} ms`,
  );
}

/**
 * Other processes on this machine (a test suite, a build) skew a run. Waits, at most 30 s, until they use
 * less than QUIET_PERCENT of the CPU; the table shows what they used during each run anyway.
 */
async function waitForQuiet(ourGroups) {
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    const before = cpuSnapshot();
    await new Promise((r) => setTimeout(r, 1_000));
    const { otherPercent } = cpuBetween(before, cpuSnapshot(), 0, ourGroups);
    if (!(otherPercent >= QUIET_PERCENT)) break;
  }
  return (Date.now() - started) / 1000;
}

/** One scenario on one server: untimed preparation, a warm-up, then the measured run. */
async function measure(scenario, side, context) {
  const load = (seconds, prepared) =>
    runLoad({ origin: context.origin, ...prepared, connections: options.connections, seconds, maxRequests: options.maxRequests });
  // When a run's time is up the load generator drops its connections, but the server still finishes the
  // requests it had accepted (up to `connections` password hashes): wait for that before the next run.
  const settle = (result) => new Promise((r) => setTimeout(r, Math.min(15_000, 500 + 1.5 * (Number.isFinite(result.p99) ? result.p99 : 0))));
  try {
    if (options.warmup > 0) await settle(await load(options.warmup, await scenario.sides[side](context)));
    // Prepared again so the measured run starts on fresh sessions.
    const prepared = await scenario.sides[side](context);
    const waitedForQuiet = await waitForQuiet(context.ourGroups);
    const before = cpuSnapshot();
    const threadsBefore = threadsCpu(context.group);
    const result = await load(options.duration, prepared);
    const after = cpuSnapshot();
    const threadsAfter = threadsCpu(context.group);
    const cpu = cpuBetween(before, after, context.group, context.ourGroups);
    await settle(result);
    // Where the server's CPU went (each server runs as the leader of its process group), and PostgreSQL's.
    const split = {
      mainThreadMsPerOk: (threadsAfter.main - threadsBefore.main) / result.ok,
      otherThreadsMsPerOk: (threadsAfter.others - threadsBefore.others) / result.ok,
      postgresMsPerOk: (after.postgres - before.postgres) / result.ok,
      postgresBackendsMsPerOk: postgresBackendsBetween(before, after, context.database) / result.ok,
    };
    return { ...result, cpuMsPerOk: cpu.serverMs / result.ok, ...split, otherPercent: cpu.otherPercent, waitedForQuiet };
  } catch (error) {
    return { failed: `could not run: ${error.message.slice(0, 300)}` };
  }
}

/** What serverCommand runs: the bundled server as `npm start` runs it, or its sources with BENCH_LATCHKEY_FROM_SOURCE=1. */
function latchkeyCommandLine() {
  return process.env.BENCH_LATCHKEY_FROM_SOURCE === "1" ? "node --import tsx packages/server/src/main.ts" : "node packages/server/dist/main.js (the bundle npm start runs)";
}

function printHeader({ pgVersion, hashes }) {
  const version = (pkg) => JSON.parse(readFileSync(join(benchDir, "node_modules", pkg, "package.json"), "utf8")).version;
  const git = spawnSync("git", ["describe", "--always", "--dirty"], { cwd: root, encoding: "utf8" }).stdout.trim();
  const scrypt = /N:\s*(\d+),\s*r:\s*(\d+),\s*p:\s*(\d+),\s*dkLen:\s*(\d+)/.exec(
    readFileSync(join(benchDir, "node_modules/@better-auth/utils/dist/password.node.mjs"), "utf8"),
  );
  console.log(`
Latchkey vs Better Auth, same PostgreSQL ${pgVersion} (127.0.0.1), ${cpus().length} cores, Node ${process.version}, autocannon ${version("autocannon")}
  concurrency ${options.connections}; ${options.warmup} s warm-up, then ${options.duration} s measured (at most ${options.maxRequests} requests) per server and scenario
  Latchkey ${git || "(no git)"}: ${latchkeyCommandLine()}, pg pool 10
    password hashing: argon2id m=19 MiB t=2 p=1 (@node-rs/argon2); stored hash prefix ${hashes.latchkey}
  Better Auth ${version("better-auth")}: Node http + toNodeHandler, pg pool 10, email+password, cookie cache ${COOKIE_CACHE_SECONDS} s
    password hashing: ${scrypt ? `scrypt N=${scrypt[1]} r=${scrypt[2]} p=${scrypt[3]} dkLen=${scrypt[4]}` : "scrypt (its default)"} (node:crypto); stored hash ${hashes.betterAuth}
  current user: Latchkey GET /users/me (verifies its ES256 access token, reads the user record from its
                in-process cache, which PostgreSQL change notifications keep current; no query once warm);
                Better Auth GET /get-session with both cookies (answered from the signed cookie cache, no database)
  token refresh: Latchkey POST /auth/sessions/current/refresh (session and user from the same caches, a
                database write at most once a minute per session, signs a new ES256 access token);
                Better Auth GET /get-session?disableCookieCache=true with the session-token cookie (session + user
                lookup, signs a fresh session-data cookie): its closest equivalent, it has no refresh endpoint
`);
}

function printTable(rows) {
  const number = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
  const header = ["scenario", "server", "req/s", "p50 ms", "p99 ms", "errors", "Latchkey/peer req/s", "server CPU ms/req", "other CPU %"];
  const lines = rows.map((row, i) => {
    if (row.failed) return [row.scenario, row.server, "-", "-", "-", "-", "", "-", "-"];
    const peer = rows[i + 1];
    const ratio = row.server === latchkey.name && peer && !peer.failed && peer.okPerSecond > 0 ? `${(row.okPerSecond / peer.okPerSecond).toFixed(2)}×` : "";
    return [
      row.scenario,
      row.server,
      number(row.okPerSecond, 1),
      number(row.p50, 1),
      number(row.p99, 1),
      String(row.errors),
      ratio,
      number(row.cpuMsPerOk, 2),
      number(row.otherPercent, 0),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const format = (cells) => cells.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  console.log(`\n${format(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const line of lines) console.log(format(line));
  console.log(
    [
      "req/s counts ok answers only (2xx with the expected body); latencies are of ok answers.",
      "server CPU ms/req: CPU time of the server's processes per ok answer (PostgreSQL's not included).",
      "other CPU %: share of the machine used during the run by processes outside the bench and PostgreSQL;",
      `  above ~${QUIET_PERCENT} % something else was competing for the ${cpus().length} cores and req/s and latencies are low.`,
    ].join("\n"),
  );

  const troubled = rows.filter((row) => row.failed || row.errors > 0);
  if (troubled.length) console.log("\nErrors:");
  for (const row of troubled) {
    console.log(`  ${row.scenario} / ${row.server}: ${row.failed ?? `${row.errors} of ${row.requests} requests: ${row.detail.join(", ")}`}`);
    for (const sample of row.samples ?? []) console.log(`      ${sample.replace(/\s+/g, " ")}`);
  }
}

/** The first stored password hash of each server, to show the parameters really in use. */
async function storedPasswordHashes(urlOf) {
  const first = async (database, query) => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return (await client.query(query)).rows[0]?.hash ?? "(none stored)";
    } catch (error) {
      return `(unreadable: ${error.message})`;
    } finally {
      await client.end();
    }
  };
  const latchkeyHash = await first(DATABASES.latchkey, "select password_hash as hash from users where password_hash is not null limit 1");
  const betterAuthHash = await first(DATABASES.betterAuth, `select password as hash from account where password is not null limit 1`);
  return {
    latchkey: latchkeyHash.startsWith("$") ? latchkeyHash.split("$").slice(0, 4).join("$") + "$" : latchkeyHash,
    betterAuth: /^[0-9a-f]+:[0-9a-f]+$/.test(betterAuthHash)
      ? `salt:key, ${betterAuthHash.split(":")[0].length / 2}-byte salt, ${betterAuthHash.split(":")[1].length / 2}-byte key`
      : betterAuthHash,
  };
}

function readOptions() {
  const { text, number } = optionReader();
  const scenarios = text("scenarios", "BENCH_SCENARIOS");
  return {
    duration: number("duration", "BENCH_DURATION", 10, { max: 600 }),
    warmup: number("warmup", "BENCH_WARMUP", 2, { min: 0, max: 60 }),
    connections: number("connections", "BENCH_CONNECTIONS", 32, { max: 1024 }),
    maxRequests: number("max-requests", "BENCH_MAX_REQUESTS", 100_000, { max: 10_000_000 }),
    scenarios: scenarios ? scenarios.split(",").map((s) => s.trim()) : undefined,
    databaseUrl: adminDatabaseUrl(),
    keepDatabases: process.env.BENCH_KEEP_DATABASES === "1",
    // e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles" to profile the Latchkey server (written when it stops).
  };
}

async function fail(message) {
  if (failing) return;
  failing = true;
  console.error(`\nbench failed: ${message}`);
  await children.stopAll().catch(() => {});
  process.exit(1);
}
