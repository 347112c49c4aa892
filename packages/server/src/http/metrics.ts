import { createHash, timingSafeEqual } from "node:crypto";
import { Hono, type Context } from "hono";
import { matchedRoutes } from "hono/route";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import type { Caches } from "../cache/caches.js";
import { passwordHashRuns } from "../crypto/passwords.js";
import { poolOf, type Db } from "../db/connect.js";
import { mailDeliveries } from "../email/send.js";
import { webhookAttempts } from "../services/webhook-delivery.js";
import { webhookQueue } from "../services/webhook-delivery-reads.js";
import type { Env } from "../env.js";
import { countUnlessBlocked, secondsBlocked, tooManyAttempts, type ThrottleSubject } from "../services/auth-throttle.js";
import { countedClientIp } from "./client-ip.js";
import type { AppEnv } from "./context.js";
import { registerRequestMetrics, RequestTallies } from "./metrics-requests.js";

/**
 * `/metrics` in Prometheus' text format. What belongs to the process (CPU, memory, event loop, password
 * hashing, mail) is registered once per process; what belongs to one app (its requests, caches, database
 * pool) in a registry of that app's own, so that several apps in one process (the tests) do not mix.
 * Everything is read when Prometheus scrapes; a request only bumps its tallies (metrics-requests.ts).
 * The README's "Metrics" section lists the names.
 */
export interface AppMetrics {
  requests: RequestTallies;
  /** The app's own registry, made at the first scrape (building an app only wires routes; see openapi.test.ts). */
  registry(): Registry;
}

export function createAppMetrics(deps: { db: Db; caches: Caches }): AppMetrics {
  // Started with the first app, not the first scrape: CPU time, GC and event-loop lag count from then on.
  processRegistry();
  const requests = new RequestTallies();
  let registry: Registry | undefined;
  return {
    requests,
    registry() {
      if (registry) return registry;
      registry = new Registry();
      registerRequestMetrics(registry, requests);
      registerCacheMetrics(registry, deps.caches);
      registerPoolMetrics(registry, deps.db);
      registerWebhookQueueMetrics(registry, deps.db);
      return registry;
    },
  };
}

/**
 * The route label of a request: the pattern of the handler that answered it (`/api/v1/users/:user_id`), or
 * would have, had a middleware not refused it first; `unmatched` when only middleware matched (a 404).
 * Matched routes are in registration order and the first handler that answers ends the chain, so that is
 * the first handler from the deepest route reached (`routeIndex`). Handlers are registered for a method;
 * the catch-all `all()` handlers (dev OAuth) are told from middleware by taking only the context.
 */
export function routeLabel(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = c.req.routeIndex; i < routes.length; i++) if (routes[i]!.method !== "ALL") return routes[i]!.path;
  for (let i = c.req.routeIndex; i < routes.length; i++) if (routes[i]!.handler.length < 2) return routes[i]!.path;
  return "unmatched";
}

export function metricsRoutes(metrics: AppMetrics): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/metrics", async (c) => {
    const { db, env } = c.get("deps");
    const authorization = c.req.header("authorization");
    const access = metricsAccess(env, authorization);
    if (access === "off") return c.text("Not found", 404);
    // Guesses of the token are limited per client address as secret keys are (services/auth-throttle.ts): a wrong one
    // is counted in the step that checks the limit, and while the address waits even the right one is refused.
    const guess: ThrottleSubject | undefined = bearerToken(authorization) !== undefined ? { kind: "metrics_token", projectId: "-", clientIp: countedClientIp(c) } : undefined;
    const seconds = !guess ? 0 : access === "open" ? await secondsBlocked(db, guess) : await countUnlessBlocked(db, guess);
    if (seconds > 0) throw tooManyAttempts(seconds);
    if (access === "refused") {
      return c.text("The metrics need `Authorization: Bearer <LATCHKEY_METRICS_TOKEN>`.", 401, { "www-authenticate": 'Bearer realm="metrics"' });
    }
    const text = (await processRegistry().metrics()) + (await metrics.registry().metrics());
    return c.body(text, 200, { "content-type": Registry.PROMETHEUS_CONTENT_TYPE });
  });
}

/** With a token configured it is required; without one the route is open in dev mode and off outside it. */
function metricsAccess(env: Pick<Env, "devMode" | "metricsToken">, authorization: string | undefined): "open" | "refused" | "off" {
  if (!env.metricsToken) return env.devMode ? "open" : "off";
  const presented = bearerToken(authorization);
  return presented !== undefined && sameSecret(presented, env.metricsToken) ? "open" : "refused";
}

const bearerToken = (authorization: string | undefined) => /^Bearer (.+)$/i.exec(authorization ?? "")?.[1];

// Comparing digests keeps the time independent of where the strings differ and of their lengths.
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

let processMetrics: Registry | undefined;

function processRegistry(): Registry {
  if (processMetrics) return processMetrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Counter({
    name: "latchkey_password_hashes_total",
    help: "Password hashes computed (hash) and checked (verify) by this process; its rate is hashes per second.",
    labelNames: ["algorithm", "operation"],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ algorithm: "argon2", operation: "hash" }, passwordHashRuns.argon2Hash);
      this.inc({ algorithm: "argon2", operation: "verify" }, passwordHashRuns.argon2Verify);
      this.inc({ algorithm: "bcrypt", operation: "verify" }, passwordHashRuns.bcryptVerify);
    },
  });
  new Gauge({
    name: "latchkey_mail_deliveries_in_flight",
    help: "Mails being handed to an SMTP server right now (mail is delivered while its request waits; this is the queue).",
    registers: [registry],
    collect() {
      this.set(mailDeliveries.inFlight);
    },
  });
  new Counter({
    name: "latchkey_mail_deliveries_total",
    help: "Mails handed over by this process: sent (accepted by the SMTP server), failed, or kept in the dev outbox.",
    labelNames: ["result"],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: "sent" }, mailDeliveries.sent);
      this.inc({ result: "failed" }, mailDeliveries.failed);
      this.inc({ result: "outbox" }, mailDeliveries.outbox);
    },
  });
  new Counter({
    name: "latchkey_webhook_attempts_total",
    help: "Webhook deliveries attempted and recorded by this process: succeeded (a 2xx answer) or failed (any other answer, or none).",
    labelNames: ["result"],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: "succeeded" }, webhookAttempts.succeeded);
      this.inc({ result: "failed" }, webhookAttempts.failed);
    },
  });
  return (processMetrics = registry);
}

/** The webhook queue in the database, which every process shares (each reports the same figures). */
function registerWebhookQueueMetrics(registry: Registry, db: Db): void {
  new Gauge({
    name: "latchkey_webhook_queue",
    help: "Webhook work waiting in the database (all processes): events not yet fanned out to their endpoints, deliveries due now, deliveries waiting for a retry or being sent, and deliveries held for a disabled endpoint.",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const queue = await webhookQueue(db);
      for (const [state, count] of Object.entries(queue)) this.set({ state }, count);
    },
  });
}

function registerCacheMetrics(registry: Registry, caches: Caches): void {
  const named = Object.entries(caches) as Array<[string, Caches[keyof Caches]]>;
  new Counter({
    name: "latchkey_cache_requests_total",
    help: "Reads of the in-memory caches, answered from memory (hit) or from the database (miss).",
    labelNames: ["cache", "result"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [cache, entries] of named) {
        this.inc({ cache, result: "hit" }, entries.hits);
        this.inc({ cache, result: "miss" }, entries.misses);
      }
    },
  });
  new Gauge({
    name: "latchkey_cache_entries",
    help: "Entries held by each in-memory cache.",
    labelNames: ["cache"],
    registers: [registry],
    collect() {
      for (const [cache, entries] of named) this.set({ cache }, entries.size);
    },
  });
}

/** PostgreSQL's connection pool; PGlite is one connection inside the process and has none. */
function registerPoolMetrics(registry: Registry, db: Db): void {
  const pool = poolOf(db);
  if (!pool) return;
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge("latchkey_db_pool_connections", "Connections the PostgreSQL pool holds, idle or in use.", () => pool.totalCount);
  gauge("latchkey_db_pool_idle_connections", "Pool connections not in use.", () => pool.idleCount);
  gauge("latchkey_db_pool_waiting_clients", "Queries waiting for a pool connection.", () => pool.waitingCount);
  gauge("latchkey_db_pool_max_connections", "The most connections the pool opens.", () => pool.options.max ?? 10);
}
