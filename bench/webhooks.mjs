#!/usr/bin/env node
// Webhooks (issue 18), two figures against one fresh database:
//   (1) what one configured endpoint adds to the write path, for a project without endpoints and one with an
//       endpoint, interleaved so both see the same machine load:
//       (a) in process, before the server (and so its delivery worker) runs: createUser (with an email; the
//           project makes a personal team) and createTeam (with a creator) — the write path alone; and the
//           lookup a project without endpoints pays per write (against an empty transaction), and the same once
//           the server runs, answered from its per-process cache (cache/webhook-listening.ts);
//       (b) over HTTP, sequential (password sign-up, server-created user, team with creator), while the worker
//           delivers each event as it is written: the write path plus the delivery competing for the cores. The
//           projects alternate in blocks of 25 writes, and each block of the project with an endpoint ends when
//           its deliveries are done, so the delivery work weighs on that project's writes only. Each scenario
//           runs twice: with the worker held during the blocks (the write path alone), then delivering.
//   (2) delivery throughput: --events events written to the outbox in one transaction, then the time until a
//       local receiver (answering 200 at once, in a process of its own) has them all and the workers have
//       recorded every attempt.
// Not part of `npm test` (STYLE.md §9). Runs the real server in this process.
//
//   node --conditions=source bench/webhooks.mjs [--writes 300] [--events 5000] [--pglite] [--no-listening-cache]
//
// --no-listening-cache: the server runs without its per-process cache of projects with endpoints (every write
// asks the database), to compare the write path of projects without endpoints with and without it.
//
// BENCH_DATABASE_URL: an admin URL of a local PostgreSQL (default postgres://postgres:postgres@127.0.0.1:5432/postgres);
// the database latchkey_bench_webhooks is created and dropped. --pglite uses in-memory PGlite instead.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { dropDatabase, freshPostgres, pgVersion } from "./bench-database.mjs";

register();
const { values: args } = parseArgs({
  options: {
    writes: { type: "string", default: "300" },
    events: { type: "string", default: "5000" },
    pglite: { type: "boolean", default: false },
    "no-listening-cache": { type: "boolean", default: false },
  },
});
const WRITES = Number(args.writes);
const EVENTS = Number(args.events);
// Writes over HTTP alternate between the two projects in blocks of this many (see (1b)).
const BLOCK = 25;

const src = new URL("../packages/server/src/", import.meta.url);
const { connectDatabase } = await import(new URL("db/connect.ts", src).href);
const { readEnv } = await import(new URL("env.ts", src).href);
const { createLogger } = await import(new URL("log.ts", src).href);
const { startServer } = await import(new URL("server.ts", src).href);
const { createKeySet } = await import(new URL("services/api-keys.ts", src).href);
const { createProject } = await import(new URL("services/projects.ts", src).href);
const { createEndpoint } = await import(new URL("services/webhook-endpoints.ts", src).href);
const { webhooksListening, writeWebhookEvents } = await import(new URL("services/webhook-outbox.ts", src).href);
const { migrate } = await import(new URL("db/migrate.ts", src).href);
const { attachWebhookListeningCache } = await import(new URL("cache/webhook-listening.ts", src).href);
const { createUser } = await import(new URL("services/users.ts", src).href);
const { createTeam } = await import(new URL("services/teams.ts", src).href);

// The app's endpoint: a receiver answering 200 at once, in a process of its own (as an app's server is), so that
// reading the deliveries does not run on the server's event loop. It counts what it got: GET /count.
const receiver = spawn(
  process.execPath,
  [
    "-e",
    `let received = 0;
    const server = require("node:http").createServer((request, response) => {
      if (request.method === "GET") return response.end(String(received));
      request.resume();
      request.on("end", () => { received++; response.writeHead(200).end("ok"); });
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const receiverPort = await new Promise((resolve, reject) => {
  receiver.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim())));
  receiver.once("exit", (code) => reject(new Error(`the receiver exited (${code})`)));
});
const receivedCount = async () => Number(await (await fetch(`http://127.0.0.1:${receiverPort}/count`)).text());
const receiverUrl = `http://127.0.0.1:${receiverPort}/hook`;

const DATABASE = "latchkey_bench_webhooks";
const db = args.pglite ? await connectDatabase({ kind: "pglite", dataDir: undefined }) : await freshPostgres(DATABASE, connectDatabase);
const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent", LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });

// (1a) In process, no server and so no worker yet: the outbox rows just wait.
await migrate(db);
const inProcess = [];
{
  const projectConfig = { configOverride: { "teams.createPersonalTeamOnSignUp": true } };
  const quietProject = await createProject(db, { displayName: "in-process, no endpoints", description: null, ...projectConfig });
  const listenedProject = await createProject(db, { displayName: "in-process, one endpoint", description: null, ...projectConfig });
  await createEndpoint(db, env, listenedProject.id, { url: receiverUrl });
  const creators = new Map();
  for (const project of [quietProject, listenedProject]) creators.set(project.id, (await createUser(db, project, {})).id);
  const writes = {
    "createUser (email, personal team)": (project) => createUser(db, project, { primaryEmail: `bench-${crypto.randomUUID()}@example.com`, primaryEmailAuthEnabled: true }),
    "createTeam (with creator)": (project) => createTeam(db, project, { displayName: "Bench team", creatorUserId: creators.get(project.id) }),
  };
  for (const [label, write] of Object.entries(writes)) {
    for (let i = 0; i < 20; i++) await Promise.all([write(quietProject), write(listenedProject)]);
    const without = [];
    const withOne = [];
    for (let i = 0; i < WRITES; i++) {
      without.push(await timed(() => write(quietProject)));
      withOne.push(await timed(() => write(listenedProject)));
    }
    inProcess.push({ label, without: summary(without), withOne: summary(withOne) });
  }
  // What a project without endpoints pays per write transaction: the one lookup that finds no endpoint.
  const lookups = [];
  for (let i = 0; i < WRITES; i++) lookups.push(await timed(() => db.transaction().execute((trx) => webhooksListening(trx, quietProject.id))));
  const bare = [];
  for (let i = 0; i < WRITES; i++) bare.push(await timed(() => db.transaction().execute(async () => {})));
  inProcess.lookup = { withLookup: summary(lookups), bare: summary(bare) };
  inProcess.quietProjectId = quietProject.id;
  // The in-process events are not part of the delivery figure below.
  await db.deleteFrom("webhook_messages").execute();
}

// The first cache attached to a database is the one used: this one answers every question from the database.
if (args["no-listening-cache"]) attachWebhookListeningCache(db, { handOff: false, listening: (_projectId, lookup) => lookup() });
const server = await startServer(env, createLogger(env.logLevel), { db });
{
  // The server attached its cache to this database: the lookup of (1a) again, now answered from memory.
  const cached = [];
  for (let i = 0; i < WRITES; i++) cached.push(await timed(() => db.transaction().execute((trx) => webhooksListening(trx, inProcess.quietProjectId))));
  inProcess.lookup.cached = summary(cached);
}

async function benchProject(name) {
  const project = await createProject(db, { displayName: name, description: null });
  const keys = await createKeySet(db, project.id, { description: "bench", expiresAt: null, kinds: ["secretServerKey", "publishableClientKey"] });
  const base = { "content-type": "application/json", "x-stack-project-id": project.id };
  const server_ = { ...base, "x-stack-access-type": "server", "x-stack-secret-server-key": keys.secret_server_key };
  const client = { ...base, "x-stack-access-type": "client", "x-stack-publishable-client-key": keys.publishable_client_key };
  const post = async (path, body, headers = server_) => {
    const response = await fetch(`${server.url}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== 201 && response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
  return { id: project.id, post, client };
}

try {
  const quiet = await benchProject("no endpoints");
  const listened = await benchProject("one endpoint");
  await createEndpoint(db, env, listened.id, { url: receiverUrl });

  // (1) The write path, interleaved; the first writes of each warm up.
  const scenarios = {
    "POST /auth/password/sign-up (client)": (p) => p.post("/auth/password/sign-up", { email: `bench-${crypto.randomUUID()}@example.com`, password: "correct horse battery staple" }, p.client),
    "POST /users (server, with email)": (p) => p.post("/users", { primary_email: `bench-${crypto.randomUUID()}@example.com`, display_name: "Bench" }),
    "POST /teams (with creator)": async (p) => p.post("/teams", { display_name: "Bench team", creator_user_id: (p.creator ??= (await p.post("/users", {})).id) }),
  };
  // In blocks, not write by write: the worker delivers a little after each commit (services/webhook-delivery.ts),
  // and a block of the project with an endpoint waits for its last deliveries before the next block starts, so
  // every delivery runs beside that project's own writes and none beside the other project's. Each scenario
  // twice: with the worker held during the blocks (the write path alone: the request's own work, events written
  // in its transaction), then with the worker delivering beside the writes (the same cores, event loop and
  // database serving both).
  const results = [];
  for (const held of [true, false]) {
    for (const [label, write] of Object.entries(scenarios)) {
      for (let i = 0; i < 20; i++) await Promise.all([write(quiet), write(listened)]);
      await delivered();
      const without = [];
      const withOne = [];
      for (let done = 0; done < WRITES; done += BLOCK) {
        if (held) await server.webhookDelivery.pause();
        for (let i = done; i < Math.min(done + BLOCK, WRITES); i++) without.push(await timed(() => write(quiet)));
        for (let i = done; i < Math.min(done + BLOCK, WRITES); i++) withOne.push(await timed(() => write(listened)));
        server.webhookDelivery.resume();
        await delivered();
      }
      results.push({ label: `${label}, ${held ? "write path alone (delivery held)" : "delivering beside the writes"}`, without: summary(without), withOne: summary(withOne) });
    }
  }

  // (2) Delivery throughput: the outbox filled in one transaction, the workers woken by its commit.
  await delivered();
  const before = await receivedCount();
  const started = performance.now();
  await db.transaction().execute((trx) => writeWebhookEvents(trx, listened.id, Array.from({ length: EVENTS }, (_, i) => ({ type: "team.updated", data: { id: String(i) } }))));
  await waitFor(async () => (await receivedCount()) - before >= EVENTS && (await pendingDeliveries()) === 0 && (await pendingFanOuts()) === 0);
  const seconds = (performance.now() - started) / 1000;

  const database = args.pglite ? "PGlite (in memory)" : `PostgreSQL ${await pgVersion()}`;
  const cacheNote = args["no-listening-cache"] ? ", without the listening cache" : "";
  console.log(`Webhooks; ${database}, Node ${process.version}, ${WRITES} sequential writes each, interleaved${cacheNote}`);
  for (const { label, without, withOne } of [...inProcess.map((r) => ({ ...r, label: `in process, ${r.label}` })), ...results]) {
    console.log(
      `  ${label}: without endpoints p50 ${without.p50.toFixed(2)} ms (mean ${without.mean.toFixed(2)}); with one endpoint p50 ${withOne.p50.toFixed(2)} ms (mean ${withOne.mean.toFixed(2)}); ` +
        `+${(100 * (withOne.p50 / without.p50 - 1)).toFixed(1)} % at p50, +${(100 * (withOne.mean / without.mean - 1)).toFixed(1)} % mean`,
    );
  }
  const { withLookup, bare, cached } = inProcess.lookup;
  console.log(
    `  a project without endpoints: the lookup costs ${(withLookup.p50 - bare.p50).toFixed(3)} ms at p50 (an empty transaction ${bare.p50.toFixed(3)} ms, with the lookup ${withLookup.p50.toFixed(3)} ms); ` +
      `from the server's cache ${(cached.p50 - bare.p50).toFixed(3)} ms (${cached.p50.toFixed(3)} ms)`,
  );
  console.log(`  delivery: ${EVENTS} events to one local endpoint in ${seconds.toFixed(2)} s = ${Math.round(EVENTS / seconds)} events/s (commit to last attempt recorded)`);
} finally {
  await server.close();
  await db.destroy();
  receiver.kill();
  if (!args.pglite) await dropDatabase(DATABASE);
}

async function pendingDeliveries() {
  const row = await db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll().as("n")).where("status", "=", "pending").executeTakeFirstOrThrow();
  return Number(row.n);
}

async function pendingFanOuts() {
  const row = await db.selectFrom("webhook_messages").select((eb) => eb.fn.countAll().as("n")).where("fan_out_pending", "=", true).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Until every message written so far has been fanned out and every delivery attempted to the end. */
function delivered() {
  return waitFor(async () => (await pendingFanOuts()) === 0 && (await pendingDeliveries()) === 0);
}

async function waitFor(condition) {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 20));
}

async function timed(run) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)], mean: values.reduce((a, b) => a + b, 0) / values.length };
}
