#!/usr/bin/env node
// What the brute-force limits (packages/server/src/services/auth-throttle.ts) add to a password sign-in
// (issue 17 target: < 1 ms at p50), measured against the same database in three ways:
//   (1) HTTP POST /auth/password/sign-in, sequential: the sign-in p50 as a client sees it, limits included;
//   (2) in process, interleaved: signInWithPassword() (production, limits included) against the same steps
//       without the limits, composed here in the bench only (lookup, argon2id verify, session);
//   (3) in process: the limits' own bookkeeping per sign-in — admitAttempt (the slot, taken in one statement)
//       and then succeeded() for a success, failed() for a failure — which is exactly what (2) differs by.
// (2) is dominated by argon2id's tens of milliseconds and their noise; (3) is the precise figure, and an upper
// bound: run alone here, whereas signInWithPassword takes the slot alongside the account lookup and gives it
// back while the session is made.
// Not part of `npm test` (STYLE.md §9). Runs the real server in this process on a fresh database.
//
//   node --conditions=source bench/sign-in-throttle.mjs [--sign-ins 200] [--bookkeeping 2000] [--pglite]
//
// BENCH_DATABASE_URL: an admin URL of a local PostgreSQL (default postgres://postgres:postgres@127.0.0.1:5432/postgres);
// the database latchkey_bench_throttle is created and dropped. --pglite uses in-memory PGlite instead.
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { dropDatabase, freshPostgres, pgVersion } from "./bench-database.mjs";

register();
const { values: args } = parseArgs({
  options: { "sign-ins": { type: "string", default: "200" }, bookkeeping: { type: "string", default: "2000" }, pglite: { type: "boolean", default: false } },
});
const SIGN_INS = Number(args["sign-ins"]);
const BOOKKEEPING = Number(args.bookkeeping);
const USERS = 16;
const PASSWORD = "correct horse battery staple";
const CLIENT_IP = "203.0.113.1";

const src = new URL("../packages/server/src/", import.meta.url);
const { default: pg } = await import("pg");
const { connectDatabase } = await import(new URL("db/connect.ts", src).href);
const { readEnv } = await import(new URL("env.ts", src).href);
const { createLogger } = await import(new URL("log.ts", src).href);
const { startServer } = await import(new URL("server.ts", src).href);
const { createKeySet } = await import(new URL("services/api-keys.ts", src).href);
const { createProject, findProject } = await import(new URL("services/projects.ts", src).href);
const { signInWithPassword } = await import(new URL("services/password-auth.ts", src).href);
const { findUserByAuthEmail } = await import(new URL("services/users.ts", src).href);
const { verifyPassword } = await import(new URL("crypto/passwords.ts", src).href);
const { finishSignIn } = await import(new URL("services/mfa-gate.ts", src).href);
const { admitAttempt } = await import(new URL("services/auth-throttle.ts", src).href);

const DATABASE = "latchkey_bench_throttle";
const db = args.pglite ? await connectDatabase({ kind: "pglite", dataDir: undefined }) : await freshPostgres(DATABASE, connectDatabase);
const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
const server = await startServer(env, createLogger(env.logLevel), { db });

try {
  const created = await createProject(db, { displayName: "throttle bench", description: null });
  const keys = await createKeySet(db, created.id, { description: "bench", expiresAt: null, kinds: ["publishableClientKey"] });
  const headers = { "content-type": "application/json", "x-stack-project-id": created.id, "x-stack-access-type": "client", "x-stack-publishable-client-key": keys.publishable_client_key };
  const post = async (path, body, expected = 200) => {
    const response = await fetch(`${server.url}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`POST ${path}: ${response.status} ${text}`);
  };
  const emails = Array.from({ length: USERS }, (_, i) => `bench-${i}-${crypto.randomUUID()}@example.com`);
  for (const email of emails) await post("/auth/password/sign-up", { email, password: PASSWORD });
  const project = await findProject(db, created.id);

  // (1) Over HTTP, as a client signs in (the peer is 127.0.0.1: the per-address counter is read too).
  for (let i = 0; i < 10; i++) await post("/auth/password/sign-in", { email: emails[i % USERS], password: PASSWORD });
  const http = await measure(SIGN_INS, (i) => post("/auth/password/sign-in", { email: emails[i % USERS], password: PASSWORD }));

  // (2) In process, production against the same steps without the limits, alternating.
  const unthrottled = async (email) => {
    const user = await findUserByAuthEmail(db, project.id, email);
    if (!user?.password_hash || !(await verifyPassword(PASSWORD, user.password_hash))) throw new Error("bench user cannot sign in");
    return finishSignIn(db, env, project, user, { isNewUser: false });
  };
  const withLimits = [];
  const withoutLimits = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const email = emails[i % USERS];
    const pair = [
      async () => withLimits.push(await timed(() => signInWithPassword(db, env, project, email, PASSWORD, { clientIp: CLIENT_IP }))),
      async () => withoutLimits.push(await timed(() => unthrottled(email))),
    ];
    if (i % 2) pair.reverse();
    for (const run of pair) await run();
  }

  // (3) The bookkeeping alone: a success's slot and its release, a failure's slot and count. Failures use a
  // fresh account and client address each, so no block builds up and every one takes the counting path.
  const success = await measure(BOOKKEEPING, async (i) => {
    const subject = { kind: "password", projectId: project.id, account: emails[i % USERS], clientIp: CLIENT_IP };
    await (await admitAttempt(db, subject)).succeeded();
  });
  const failure = await measure(BOOKKEEPING, async (i) => {
    const subject = { kind: "password", projectId: project.id, account: `nobody-${i}@example.com`, clientIp: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` };
    await (await admitAttempt(db, subject)).failed();
  });

  const database = args.pglite ? "PGlite (in memory)" : `PostgreSQL ${(await pgVersion()) ?? ""}`.trim();
  const p50 = (values) => percentile(values, 0.5);
  console.log(`Password sign-in and its brute-force bookkeeping; ${database}, Node ${process.version}, ${USERS} users round-robin, sequential`);
  report("HTTP POST /auth/password/sign-in (limits included)", http);
  console.log(`  in process, ${SIGN_INS} each, interleaved: signInWithPassword p50 ${p50(withLimits).toFixed(2)} ms; the same steps without the limits p50 ${p50(withoutLimits).toFixed(2)} ms; difference ${(p50(withLimits) - p50(withoutLimits)).toFixed(2)} ms (within argon2id's noise)`);
  report("bookkeeping of a successful sign-in (admitAttempt + succeeded)", success);
  report("bookkeeping of a failed sign-in (admitAttempt + failed)", failure);
  console.log(`  → the limits add ${success.p50.toFixed(2)} ms at p50 to a successful sign-in of ${http.p50.toFixed(1)} ms (${((100 * success.p50) / http.p50).toFixed(1)} %), ${failure.p50.toFixed(2)} ms to a failed one`);
} finally {
  await server.close();
  await db.destroy();
  if (!args.pglite) await dropDatabase(DATABASE);
}

async function timed(run) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function measure(count, run) {
  const latencies = [];
  for (let i = 0; i < count; i++) latencies.push(await timed(() => run(i)));
  return { count, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function report(label, { count, p50, p99 }) {
  console.log(`  ${label}: ${count} runs, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
}

