#!/usr/bin/env node
// Issue 30 §1, "Done when": one tenant's hostile email render must not stall the others. The same mixed load runs
// twice on one Latchkey server (fresh local PostgreSQL database): first alone, then with a hostile tenant
// rendering one of the review's templates every few seconds (its 30 MB error message, its 15.6 MB mail, a runaway
// loop, a memory bomb, in turn). The other tenants are the internal project's users (sign-in, current user,
// refresh, team list, profile update) and three projects previewing the reference's verification mail. Prints
// per operation p50/p99 of both runs side by side, 5xx (target: none), the other tenants' p99 with the hostile
// renders against without (target: within 2×), what the hostile renders were answered, and the resident memory
// of the server process and of its sandbox process (a child of it). Not part of `npm test` (STYLE.md §9).
//
//   node bench/render-isolation.mjs [--duration 300] [--connections 32] [--hostile-every 3]
//
// BENCH_DATABASE_URL: an admin URL of a local PostgreSQL (default postgres://postgres:postgres@127.0.0.1:5432/postgres);
// the database latchkey_bench_render_isolation is created for the run and dropped after it (BENCH_KEEP_DATABASES=1 keeps it).
import { readFileSync } from "node:fs";
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

const DATABASE = "latchkey_bench_render_isolation";
/** Untimed load before each measured run (JIT, caches, the neighbours' warm sandboxes). */
const WARMUP_LOAD_SECONDS = 10;
const NEIGHBOURS = 3;
/** Share of the other tenants' requests per operation. */
const MIX = { "sign-in": 2, "current-user": 44, refresh: 20, "team-list": 10, "user-update": 12, render: 4 };
/** The reference's email-verification template id: each project has it, in its selected theme (Tailwind). */
const VERIFICATION_TEMPLATE = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";
const template = (body) => `export function EmailTemplate() {\n${body}\n}`;
const HOSTILE = [
  ["30 MB error", template('throw new Error("E".repeat(30000000));')],
  ["15.6 MB mail", template('return <p>{"x".repeat(15600000)}</p>;')],
  ["runaway loop", template("while (true) {}")],
  ["memory bomb", template("const chunks = []; while (true) chunks.push(new Array(1_000_000).fill(chunks.length));")],
];

const options = readOptions();
installBenchDependencies();
const { percentileOf, runLoad } = await import("./load.mjs");
const { rssMiB } = await import("./memory.mjs");
const { LATCHKEY_CLIENT_HEADERS, PASSWORD, createUsers, fetchOk, forEachLimited, latchkey } = await import("./scenarios.mjs");

let failing = false;
const children = childProcesses(fail);
const budgetSeconds = 400 + 2 * (options.duration + WARMUP_LOAD_SECONDS + 60);
setTimeout(() => fail(`the bench ran longer than its ${budgetSeconds} s budget`), budgetSeconds * 1000).unref();
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => fail(`stopped by ${signal}`));

try {
  await main();
} catch (error) {
  await fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

async function main() {
  const pgVersion = await recreateDatabases(options.databaseUrl, [DATABASE]);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startLatchkey(children, "Latchkey", { databaseUrl: databaseUrlOf(options.databaseUrl, DATABASE), port });
  await waitUntilUp(`${origin}/health`);

  const state = await prepare(origin);
  const next = requestSequence(state);
  const runs = [];
  for (const hostile of [false, true]) {
    console.log(`\n${hostile ? `With a hostile render every ${options.hostileEvery} s` : "Without hostile renders"}: ${WARMUP_LOAD_SECONDS} s warm-up load, then ${options.duration} s measured…`);
    await runLoad({ origin, next, check: () => false, connections: options.connections, seconds: WARMUP_LOAD_SECONDS, maxRequests: 100_000 });
    const memory = sampleMemory(server.pid);
    const attacker = hostile ? hostileRenders(origin, state.attacker) : null;
    const result = await runLoad({ origin, next, check: () => false, connections: options.connections, seconds: options.duration, maxRequests: Math.max(100_000, options.duration * 10_000) });
    const hostileAnswers = await attacker?.stop();
    runs.push({ hostile, summary: summarize(result), memory: memory.stop(), hostileAnswers });
  }
  await children.stopAll();
  if (!options.keepDatabases) await dropDatabases(options.databaseUrl, [DATABASE]);
  print(runs, pgVersion);
}

/** The internal project's users with their sessions; a dashboard user's projects, each with an admin key. */
async function prepare(origin) {
  const emails = await createUsers(latchkey, origin);
  const readers = await forEachLimited(emails, 8, async (email) => ({ email, ...(await latchkey.signIn(origin, email)) }));
  const owner = readers[0];
  const { text: me } = await fetchOk(`${origin}/api/v1/users/me`, { headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": owner.accessToken } });
  const teamId = JSON.parse(me).selected_team_id;
  const project = async (name) => {
    const headers = { ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": owner.accessToken, "content-type": "application/json" };
    const { text } = await fetchOk(`${origin}/api/v1/internal/projects`, { method: "POST", headers, body: JSON.stringify({ display_name: name, owner_team_id: teamId }) });
    const id = JSON.parse(text).id;
    const ownerAdmin = { "x-stack-project-id": id, "x-stack-access-type": "admin", "x-stack-admin-access-token": owner.accessToken, "content-type": "application/json" };
    // A key of its own: the owner's access token would expire during the runs.
    const body = { description: "bench", expires_at_millis: Date.now() + 24 * 3600_000, has_publishable_client_key: false, has_secret_server_key: false, has_super_secret_admin_key: true };
    const keys = JSON.parse((await fetchOk(`${origin}/api/v1/internal/api-keys`, { method: "POST", headers: ownerAdmin, body: JSON.stringify(body) })).text);
    const admin = { "x-stack-project-id": id, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": keys.super_secret_admin_key, "content-type": "application/json" };
    // Its sandbox's first render loads the libraries: done here, untimed.
    await fetchOk(`${origin}/api/v1/emails/render-email`, { method: "POST", headers: admin, body: JSON.stringify({ template_id: VERIFICATION_TEMPLATE }) });
    return admin;
  };
  const neighbours = [];
  for (let i = 0; i < NEIGHBOURS; i++) neighbours.push(await project(`Neighbour ${i + 1}`));
  return { readers, neighbours, attacker: await project("Hostile tenant") };
}

/** `next()` for runLoad: the other tenants' requests, in MIX's proportions, spread evenly over each cycle. */
function requestSequence({ readers, neighbours }) {
  const cycle = Object.entries(MIX).flatMap(([op, weight]) => Array(weight).fill(op));
  // Interleaved rather than in blocks: a fixed stride through the cycle, coprime with its length.
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  const stride = [7, 11, 13, 17, 19].find((s) => gcd(cycle.length, s) === 1);
  let position = 0;
  let counter = 0;
  const reader = roundRobin(readers);
  const neighbour = roundRobin(neighbours);
  const asUser = (session) => ({ ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": session.accessToken });
  const has = (text) => (_status, body) => body.includes(text);
  const json = { "content-type": "application/json" };
  const build = {
    "sign-in": () => ({ method: "POST", path: "/api/v1/auth/password/sign-in", headers: { ...LATCHKEY_CLIENT_HEADERS, ...json }, body: JSON.stringify({ email: reader().email, password: PASSWORD }), check: has('"access_token"') }),
    "current-user": () => ({ method: "GET", path: "/api/v1/users/me", headers: asUser(reader()), check: has('"primary_email"') }),
    refresh: () => {
      const session = reader();
      return {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-refresh-token": session.refreshToken },
        check: has('"access_token"'),
        onOk: (body) => (session.accessToken = JSON.parse(body).access_token),
      };
    },
    "team-list": () => ({ method: "GET", path: "/api/v1/teams?user_id=me", headers: asUser(reader()), check: has('"items":[{') }),
    "user-update": () => ({ method: "PATCH", path: "/api/v1/users/me", headers: { ...asUser(reader()), ...json }, body: JSON.stringify({ client_metadata: { bench: counter++ } }), check: has('"client_metadata"') }),
    render: () => ({ method: "POST", path: "/api/v1/emails/render-email", headers: neighbour(), body: JSON.stringify({ template_id: VERIFICATION_TEMPLATE }), check: has("Verify your email") }),
  };
  return () => {
    position = (position + stride) % cycle.length;
    const op = cycle[position];
    return { op, ...build[op]() };
  };
}

function roundRobin(items) {
  let i = 0;
  return () => items[i++ % items.length];
}

/** One hostile render every `--hostile-every` seconds, the four kinds in turn, each answer recorded. */
function hostileRenders(origin, headers) {
  const answers = [];
  const pending = new Set();
  let round = 0;
  const fire = () => {
    const [name, source] = HOSTILE[round++ % HOSTILE.length];
    const started = performance.now();
    const request = fetch(`${origin}/api/v1/emails/render-email`, { method: "POST", headers, body: JSON.stringify({ template_tsx_source: source, theme_id: false }) })
      .then(async (response) => {
        const body = await response.text();
        answers.push({ name, status: response.status, bytes: body.length, ms: performance.now() - started, error: response.status === 400 ? JSON.parse(body).details?.error : body.slice(0, 100) });
      })
      .catch((error) => answers.push({ name, status: 0, bytes: 0, ms: performance.now() - started, error: String(error) }))
      .finally(() => pending.delete(request));
    pending.add(request);
  };
  fire();
  const timer = setInterval(fire, options.hostileEvery * 1000);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return answers;
    },
  };
}

/** RSS of the server process and of its sandbox process (found among its children), every second. */
function sampleMemory(serverPid) {
  const samples = [];
  const take = () => samples.push({ server: rssMiB(serverPid), sandbox: rssMiB(sandboxPid(serverPid)) });
  take();
  const timer = setInterval(take, 1000);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

function sandboxPid(serverPid) {
  try {
    const children = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("sandbox-process")) ?? -1;
  } catch {
    return -1;
  }
}

function summarize(result) {
  const perOperation = Object.keys(MIX).map((op) => {
    const part = result.byOperation[op] ?? { ok: 0, errors: 0, serverErrors: 0, latencies: [] };
    const latencies = Float64Array.from(part.latencies).sort();
    return { op, okPerSecond: part.ok / result.seconds, p50: percentileOf(latencies, 50), p99: percentileOf(latencies, 99), errors: part.errors, serverErrors: part.serverErrors };
  });
  const all = Float64Array.from(Object.values(result.byOperation).flatMap((p) => p.latencies)).sort();
  return {
    perOperation,
    all: { okPerSecond: result.ok / result.seconds, p50: percentileOf(all, 50), p99: percentileOf(all, 99), errors: result.errors, serverErrors: result.serverErrors },
    errorSamples: result.samples,
  };
}

function print([alone, attacked], pgVersion) {
  const n = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
  console.log(`\nOne Latchkey process, PostgreSQL ${pgVersion} (127.0.0.1), ${cpus().length} cores, Node ${process.version}; ${options.connections} connections, ${options.duration} s measured per run`);
  const rows = [...alone.summary.perOperation.map((o, i) => [o, attacked.summary.perOperation[i]]), [{ op: "all", ...alone.summary.all }, { op: "all", ...attacked.summary.all }]];
  printTable(
    ["operation", "alone ok/s", "p50 ms", "p99 ms", "5xx", "hostile ok/s", "p50 ms", "p99 ms", "5xx", "p99 ×"],
    rows.map(([a, b]) => [a.op, n(a.okPerSecond), n(a.p50), n(a.p99), String(a.serverErrors), n(b.okPerSecond), n(b.p50), n(b.p99), String(b.serverErrors), `${n(b.p99 / a.p99, 2)}×`]),
  );
  for (const run of [alone, attacked]) for (const sample of run.summary.errorSamples) console.log(`  error${run.hostile ? " (hostile run)" : ""}: ${sample.replace(/\s+/g, " ")}`);
  const serverErrors = alone.summary.all.serverErrors + attacked.summary.all.serverErrors;
  const ratio = attacked.summary.all.p99 / alone.summary.all.p99;
  console.log(`\n5xx in both runs: ${serverErrors} (target 0). The other tenants' p99 with the hostile renders: ${n(ratio, 2)}× of without (target ≤ 2×).`);

  const answers = attacked.hostileAnswers;
  console.log(`\nHostile renders: ${answers.length}, answered ${Object.entries(countBy(answers, (a) => String(a.status))).map(([status, count]) => `${status}×${count}`).join(", ")}; largest answer ${Math.max(0, ...answers.map((a) => a.bytes))} bytes`);
  for (const [name] of HOSTILE) {
    const mine = answers.filter((a) => a.name === name);
    const times = Float64Array.from(mine.map((a) => a.ms)).sort();
    console.log(`  ${name}: ${mine.length}, p50 ${n(percentileOf(times, 50), 0)} ms, max ${n(times[times.length - 1], 0)} ms — ${[...new Set(mine.map((a) => shorten(a.error)))].join(" | ")}`);
  }
  for (const run of [alone, attacked]) {
    const series = (key) => run.memory.map((s) => s[key]).filter(Number.isFinite);
    const range = (values) => (values.length ? `${n(values[0], 0)} → ${n(values[values.length - 1], 0)} MiB (max ${n(Math.max(...values), 0)})` : "-");
    console.log(`RSS ${run.hostile ? "with hostile renders" : "alone"}: server ${range(series("server"))}; sandbox process ${range(series("sandbox"))}`);
  }
}

/** An answer's error as printed: the 2,000-character messages cut to their start. */
function shorten(text) {
  return String(text).length > 80 ? `${String(text).slice(0, 40)}… (${String(text).length} characters)` : String(text);
}

function countBy(items, key) {
  const counts = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function printTable(header, lines) {
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const format = (cells) => cells.map((cell, c) => (c < 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  console.log(`${format(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const line of lines) console.log(format(line));
}

function readOptions() {
  const { number } = optionReader(undefined, "render-isolation");
  return {
    duration: number("duration", "BENCH_DURATION", 300, { max: 3600 }),
    connections: number("connections", "BENCH_CONNECTIONS", 32, { min: 2, max: 1024 }),
    hostileEvery: number("hostile-every", undefined, 3, { min: 1, max: 60 }),
    databaseUrl: adminDatabaseUrl("render-isolation"),
    keepDatabases: process.env.BENCH_KEEP_DATABASES === "1",
  };
}

async function fail(message) {
  if (failing) return;
  failing = true;
  console.error(`\nrender-isolation failed: ${message}`);
  await children.stopAll().catch(() => {});
  process.exit(1);
}
