#!/usr/bin/env node
// The payments ledger on its hot paths (issue 32), over HTTP as a developer's server calls it:
//   (1) tryDecreaseQuantity on one hot customer: POST /payments/items/custom/{id}/tokens/update-quantity
//       ?allow_negative=false {delta: -1}, 32 concurrent — all on one (customer, item), so every call queues on
//       the same advisory lock: this is the worst case, not a typical spread of customers;
//   (2) item reads: GET /payments/items/custom/{id}/tokens, 32 concurrent, for a customer with a live
//       subscription (weekly grants), a one-time purchase and a few hundred quantity changes (and, for scale, a
//       plain GET /users/{id} at the same concurrency);
//   (3) exactness: 2,000 decreases of 1 at 32 concurrent against a balance of 500: exactly 500 succeed, 0 left.
// After (1) the final balance must equal the start minus the successes. Not part of `npm test` (STYLE.md §9).
//
//   node --conditions=source bench/payments-items.mjs [--duration 5] [--connections 32] [--pglite]
//
// --duration: seconds of each of (1) and (2). BENCH_DATABASE_URL: an admin URL of a local PostgreSQL (default
// postgres://postgres:postgres@127.0.0.1:5432/postgres); latchkey_bench_payments is created and dropped.
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { dropDatabase, freshPostgres, pgVersion } from "./bench-database.mjs";

register();
const { values: args } = parseArgs({
  options: { duration: { type: "string", default: "5" }, connections: { type: "string", default: "32" }, pglite: { type: "boolean", default: false } },
});
const DURATION_MS = Number(args.duration) * 1000;
const CONNECTIONS = Number(args.connections);

const src = new URL("../packages/server/src/", import.meta.url);
const { connectDatabase } = await import(new URL("db/connect.ts", src).href);
const { readEnv } = await import(new URL("env.ts", src).href);
const { createLogger } = await import(new URL("log.ts", src).href);
const { startServer } = await import(new URL("server.ts", src).href);
const { createKeySet } = await import(new URL("services/api-keys.ts", src).href);
const { createProject } = await import(new URL("services/projects.ts", src).href);

const DATABASE = "latchkey_bench_payments";
const db = args.pglite ? await connectDatabase({ kind: "pglite", dataDir: undefined }) : await freshPostgres(DATABASE, connectDatabase);
const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
const server = await startServer(env, createLogger(env.logLevel), { db });

try {
  const project = await createProject(db, { displayName: "payments bench", description: null });
  const keys = await createKeySet(db, project.id, { description: "bench", expiresAt: null, kinds: ["secretServerKey", "superSecretAdminKey"] });
  const headers = (access, key) => ({ "content-type": "application/json", "x-stack-project-id": project.id, "x-stack-access-type": access, [`x-stack-${key[0]}`]: key[1] });
  const adminHeaders = headers("admin", ["super-secret-admin-key", keys.super_secret_admin_key]);
  const serverHeaders = headers("server", ["secret-server-key", keys.secret_server_key]);
  const call = async (method, path, hdrs, body) => {
    const response = await fetch(`${server.url}/api/v1${path}`, { method, headers: hdrs, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  const ok = async (...a) => {
    const r = await call(...a);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${a[0]} ${a[1]}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  await ok("PATCH", "/internal/config/override", adminHeaders, {
    config_override_string: JSON.stringify({
      "payments.items.tokens": { displayName: "Tokens", customerType: "custom" },
      "payments.offers.plan": { displayName: "Plan", customerType: "custom", prices: { monthly: { USD: "10", interval: [1, "month"] } }, includedItems: { tokens: { quantity: 100, repeat: [1, "week"], expires: "when-repeated" } } },
      "payments.offers.pack": { displayName: "Pack", customerType: "custom", prices: { once: { USD: "5" } }, includedItems: { tokens: { quantity: 50 } } },
    }),
  });
  const item = (id) => `/payments/items/custom/${id}/tokens`;
  const decrease = (id) => call("POST", `${item(id)}/update-quantity?allow_negative=false`, serverHeaders, { delta: -1 });
  const quantity = async (id) => (await ok("GET", item(id), serverHeaders)).quantity;

  // (1) The hot customer starts with a balance no run of this length can exhaust.
  const START = 10_000_000;
  await ok("POST", `${item("hot")}/update-quantity`, serverHeaders, { delta: START });
  let refused = 0;
  const decreases = await measureFor(DURATION_MS, CONNECTIONS, async () => {
    const r = await decrease("hot");
    if (r.status !== 200) refused++;
  });
  const succeeded = decreases.count - refused;
  const left = await quantity("hot");
  const exact1 = left === START - succeeded;

  // (2) A reader with a subscription (period started 20 days ago: 3 weekly grants), a purchase and 300 changes.
  const now = Date.now();
  await db.insertInto("payment_subscriptions").values({
    project_id: project.id, customer_type: "custom", customer_id: "reader", offer_id: "plan", offer: "{}", price_id: "monthly", quantity: 1, status: "active",
    current_period_start: new Date(now - 20 * 86_400_000), current_period_end: new Date(now + 10 * 86_400_000), creation_source: "TEST_MODE", created_at: new Date(now - 20 * 86_400_000),
  }).execute();
  await db.insertInto("payment_one_time_purchases").values({ project_id: project.id, customer_type: "custom", customer_id: "reader", offer_id: "pack", offer: "{}", price_id: "once", quantity: 2, creation_source: "TEST_MODE" }).execute();
  await db.insertInto("payment_item_quantity_changes").values(Array.from({ length: 300 }, (_, i) => ({
    project_id: project.id, customer_type: "custom", customer_id: "reader", item_id: "tokens", quantity: i % 2 ? 3 : -1, description: null, expires_at: null,
  }))).execute();
  const expected = 100 + 2 * 50 + 150 * 3 - 150;
  const reads = await measureFor(DURATION_MS, CONNECTIONS, async () => {
    if ((await quantity("reader")) !== expected) throw new Error("wrong quantity read");
  });

  // For scale, under the same conditions: a read the pipeline answers from one indexed row.
  const user = await ok("POST", "/users", serverHeaders, { display_name: "bench" });
  const baseline = await measureFor(DURATION_MS / 2, CONNECTIONS, () => ok("GET", `/users/${user.id}`, serverHeaders));

  // (3) Exactness where the balance runs out.
  await ok("POST", `${item("scarce")}/update-quantity`, serverHeaders, { delta: 500 });
  let exactOk = 0;
  await measureCount(2000, CONNECTIONS, async () => {
    const r = await decrease("scarce");
    if (r.status === 200) exactOk++;
    else if (r.body.code !== "ITEM_QUANTITY_INSUFFICIENT_AMOUNT") throw new Error(JSON.stringify(r.body));
  });
  const scarceLeft = await quantity("scarce");

  const database = args.pglite ? "PGlite (in memory)" : `PostgreSQL ${(await pgVersion()) ?? ""}`.trim();
  console.log(`Payments items, ${database}, Node ${process.version}, ${CONNECTIONS} concurrent`);
  report("tryDecreaseQuantity, one hot customer (POST …/update-quantity?allow_negative=false)", decreases);
  console.log(`    ${succeeded} succeeded, ${refused} refused; balance ${START} → ${left}: ${exact1 ? "exact" : "WRONG"}`);
  report("item reads (GET /payments/items/…)", reads);
  report("baseline GET /users/{id}", baseline);
  console.log(`  exactness: 2000 decreases of 1 on a balance of 500 → ${exactOk} succeeded, ${scarceLeft} left: ${exactOk === 500 && scarceLeft === 0 ? "exact" : "WRONG"}`);
  if (!exact1 || exactOk !== 500 || scarceLeft !== 0) process.exitCode = 1;
} finally {
  await server.close();
  await db.destroy();
  if (!args.pglite) await dropDatabase(DATABASE);
}

async function measureFor(durationMs, concurrency, run) {
  const end = performance.now() + durationMs;
  return measureWhile(() => performance.now() < end, concurrency, run);
}

async function measureCount(count, concurrency, run) {
  let started = 0;
  return measureWhile(() => started++ < count, concurrency, run);
}

async function measureWhile(more, concurrency, run) {
  const latencies = [];
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (more()) {
      const t = performance.now();
      await run();
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { count: latencies.length, perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}

function report(label, { count, perSecond, p50, p99 }) {
  console.log(`  ${label}: ${count} requests, ${Math.round(perSecond)}/s, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
}
