#!/usr/bin/env node
// What SIGTERM does to requests in flight (issue 30 §4): one server on a fresh local PostgreSQL database under a
// steady load (password sign-ins and current-user reads on `--connections` connections, and `--burners` processes
// spinning on the CPU, as a busy 2-core machine), then `--in-flight` sign-ups sent at once and SIGTERM as soon as
// the first of them is answered. Each sign-up's answer is compared with the database afterwards: an answer is
// true when a 200 was committed and a 503 was not; a 503 for a committed sign-up (its retry gets 409) is false.
// Reports per run the answers, the time from SIGTERM to the process's exit, and what the load got after SIGTERM.
// Not part of `npm test` (STYLE.md §9).
//
//   node bench/shutdown-drain.mjs [--grace-ms 10000] [--in-flight 30] [--connections 32] [--burners 2]
//                                 [--warmup 5] [--runs 3] [--pglite]
//
// `--grace-ms` unset: the server's default LATCHKEY_SHUTDOWN_TIMEOUT_MS (and `--hard-limit-ms`, its
// LATCHKEY_SHUTDOWN_HARD_LIMIT_MS). With `--pglite` the server uses embedded PGlite in a temporary data dir. BENCH_DATABASE_URL: an admin URL of a
// local PostgreSQL (default postgres://postgres:postgres@127.0.0.1:5432/postgres); the database
// latchkey_bench_drain is created for each run and dropped after it.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminDatabaseUrl, childProcesses, databaseUrlOf, dropDatabases, freePort, installBenchDependencies, optionReader, recreateDatabases, sourceCommand, latchkeyEnv, waitUntilUp } from "./harness.mjs";

const DATABASE = "latchkey_bench_drain";
const { text, number } = optionReader(process.argv.slice(2), "shutdown-drain");
const options = {
  graceMs: text("grace-ms") === undefined ? undefined : number("grace-ms", undefined, 0, { min: 0, max: 600_000 }),
  inFlight: number("in-flight", undefined, 30, { max: 1000 }),
  connections: number("connections", undefined, 32, { min: 0, max: 512 }),
  burners: number("burners", undefined, 2, { min: 0, max: 16 }),
  warmup: number("warmup", undefined, 5, { min: 0, max: 600 }),
  runs: number("runs", undefined, 3, { max: 50 }),
  hardLimitMs: text("hard-limit-ms") === undefined ? undefined : number("hard-limit-ms", undefined, 0, { min: 0, max: 600_000 }),
  pglite: process.argv.includes("--pglite"),
};
installBenchDependencies();
const { default: pg } = await import("pg");
const { PGlite } = await import("@electric-sql/pglite");
const { LATCHKEY_CLIENT_HEADERS, PASSWORD, forEachLimited } = await import("./scenarios.mjs");
const adminUrl = adminDatabaseUrl("shutdown-drain");
const JSON_HEADERS = { ...LATCHKEY_CLIENT_HEADERS, "content-type": "application/json" };
const LOAD_USERS = 16;

const burners = [];
process.once("exit", () => {
  for (const burner of burners) if (burner.exitCode === null) process.kill(-burner.pid, "SIGKILL");
});

const results = [];
for (let run = 1; run <= options.runs; run++) results.push(await oneRun(run));
if (!options.pglite) await dropDatabases(adminUrl, [DATABASE]);
console.log(
  `\nshutdown-drain: ${options.pglite ? "PGlite" : "PostgreSQL"}, ${options.inFlight} sign-ups in flight, ${options.connections} load connections, ${options.burners} CPU burners, ` +
    `grace ${options.graceMs ?? "default"} ms, hard limit ${options.hardLimitMs ?? "default"} ms`,
);
console.log("run | answered before SIGTERM | 200 | 503 true | 503 FALSE (committed) | no answer (committed) | other | SIGTERM→exit | load after SIGTERM");
for (const [i, r] of results.entries()) {
  console.log(
    `${i + 1} | ${r.before} | ${r.ok} | ${r.true503} | ${r.false503} | ${r.reset} (${r.resetCommitted}) | ${r.other.length ? r.other.join("; ") : 0} | ${r.exitMs} ms (exit ${r.exitCode}) | ${JSON.stringify(r.load)}`,
  );
}
process.exit(results.some((r) => r.false503 > 0 || r.resetCommitted > 0) ? 1 : 0);

async function oneRun(run) {
  const dataDir = options.pglite ? mkdtempSync(join(tmpdir(), "latchkey-bench-drain-")) : undefined;
  if (!dataDir) await recreateDatabases(adminUrl, [DATABASE]);
  const databaseUrl = databaseUrlOf(adminUrl, DATABASE);
  const children = childProcesses((message) => {
    console.error(message);
    process.exit(1);
  });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const [command, args] = sourceCommand("packages/server/src/main.ts");
  const env = latchkeyEnv({ databaseUrl, port });
  if (dataDir) {
    delete env.LATCHKEY_DATABASE_URL;
    env.LATCHKEY_DATA_DIR = dataDir;
  }
  if (options.graceMs !== undefined) env.LATCHKEY_SHUTDOWN_TIMEOUT_MS = String(options.graceMs);
  if (options.hardLimitMs !== undefined) env.LATCHKEY_SHUTDOWN_HARD_LIMIT_MS = String(options.hardLimitMs);
  const server = children.start("latchkey", command, args, env);
  server.stopping = true; // it is meant to exit during the run
  await waitUntilUp(`${origin}/api/v1`);

  const loadEmails = Array.from({ length: LOAD_USERS }, (_, i) => `load-${run}-${i}-${Date.now()}@bench.example.com`);
  await forEachLimited(loadEmails, 4, (email) => signUp(origin, email));
  const tokens = await forEachLimited(loadEmails, 4, async (email) => JSON.parse((await signIn(origin, email)).text).access_token);

  for (let i = 0; i < options.burners; i++) {
    burners.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore", detached: true }));
  }
  let sigtermAt = 0;
  // The load's requests answered after SIGTERM (sent before or after it), by outcome; `refused`: no answer.
  const load = { ok: 0, "503": 0, other: 0, refused: 0 };
  let stopLoad = false;
  const loops = Array.from({ length: options.connections }, async (_, i) => {
    for (let n = 0; !stopLoad; n++) {
      try {
        const response =
          n % 4 === 0
            ? await signIn(origin, loadEmails[(i + n) % LOAD_USERS], false)
            : await call(origin, "/users/me", { headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": tokens[(i + n) % LOAD_USERS] } });
        if (sigtermAt > 0) load[response.status === 200 ? "ok" : response.status === 503 ? "503" : "other"]++;
        if (sigtermAt > 0 && ![200, 503].includes(response.status)) load.otherSample ??= `${response.status} ${response.text.slice(0, 120)}`;
      } catch {
        if (sigtermAt > 0) {
          load.refused++;
          return;
        }
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, options.warmup * 1000));

  const emails = Array.from({ length: options.inFlight }, (_, i) => `in-flight-${run}-${i}-${Date.now()}@bench.example.com`);
  let firstAnswered;
  const oneAnswered = new Promise((resolve) => (firstAnswered = resolve));
  const signUps = emails.map((email) =>
    signUp(origin, email, false).then(
      (answer) => {
        firstAnswered();
        return { email, ...answer, afterSigterm: sigtermAt > 0 };
      },
      (error) => ({ email, status: 0, text: String(error.cause?.code ?? error.message), afterSigterm: true }),
    ),
  );
  await oneAnswered;
  sigtermAt = performance.now();
  process.kill(-server.pid, "SIGTERM");
  const answers = await Promise.all(signUps);
  const exit = await server.exit;
  const exitMs = Math.round(performance.now() - sigtermAt);
  stopLoad = true;
  await Promise.all(loops);
  for (const burner of burners.splice(0)) process.kill(-burner.pid, "SIGKILL");

  const committed = new Set((await committedOf(databaseUrl, dataDir, emails)).map((row) => row.value));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const after = answers.filter((a) => a.afterSigterm);
  const result = {
    before: answers.length - after.length,
    ok: after.filter((a) => a.status === 200).length,
    true503: after.filter((a) => a.status === 503 && !committed.has(a.email)).length,
    false503: after.filter((a) => a.status === 503 && committed.has(a.email)).length,
    reset: after.filter((a) => a.status === 0).length,
    resetCommitted: after.filter((a) => a.status === 0 && committed.has(a.email)).length,
    other: after.filter((a) => ![0, 200, 503].includes(a.status)).map((a) => `${a.status} ${a.text.slice(0, 80)}`),
    exitMs,
    exitCode: exit.signal ?? exit.code,
    load,
  };
  // Which 503s: the shutdown's "try again" (not started at the grace's end) or the database's (no connection in time).
  result.texts503 = {};
  for (const a of after.filter((a) => a.status === 503)) {
    const key = `${a.text.slice(0, 40)}…${committed.has(a.email) ? " (COMMITTED)" : ""}`;
    result.texts503[key] = (result.texts503[key] ?? 0) + 1;
  }
  const notCommitted200 = after.filter((a) => a.status === 200 && !committed.has(a.email)).length;
  if (notCommitted200) result.other.push(`${notCommitted200} answered 200 but not committed`);
  console.log(`run ${run}: ${JSON.stringify(result)}`);
  return result;
}

async function call(origin, path, init = {}) {
  const response = await fetch(`${origin}/api/v1${path}`, { ...init, signal: AbortSignal.timeout(120_000) });
  return { status: response.status, text: await response.text() };
}

async function signUp(origin, email, mustSucceed = true) {
  const answer = await call(origin, "/auth/password/sign-up", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ email, password: PASSWORD }) });
  if (mustSucceed && answer.status !== 200) throw new Error(`sign-up answered ${answer.status}: ${answer.text}`);
  return answer;
}

async function signIn(origin, email, mustSucceed = true) {
  const answer = await call(origin, "/auth/password/sign-in", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ email, password: PASSWORD }) });
  if (mustSucceed && answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${answer.text}`);
  return answer;
}

/** The sign-ups of `emails` the database holds once the server has exited. */
async function committedOf(databaseUrl, dataDir, emails) {
  const text = "select value from contact_channels where value = any($1)";
  if (dataDir) {
    const pglite = await PGlite.create({ dataDir });
    try {
      return (await pglite.query(text, [emails])).rows;
    } finally {
      await pglite.close();
    }
  }
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    return (await admin.query(text, [emails])).rows;
  } finally {
    await admin.end();
  }
}
