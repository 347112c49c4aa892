import type { Server } from "node:http";
import { serve, type ServerType } from "@hono/node-server";
import type { Logger } from "pino";
import { createApp } from "./app.js";
import { createCaches } from "./cache/caches.js";
import { attachWebhookListeningCache, WebhookListeningCache } from "./cache/webhook-listening.js";
import { startSvixForwarder } from "./services/webhook-svix-forwarder.js";
import { openChangeFeed } from "./db/change-feed.js";
import { changeSourceOf, connectDatabase, type Db } from "./db/connect.js";
import { migrate } from "./db/migrate.js";
import { Drain } from "./http/drain.js";
import { trackConnections } from "./http/listener-close.js";
import { StartupError } from "./startup-error.js";
import { startPhases } from "./start-phases.js";
import type { Env } from "./env.js";
import { attachSigningKeyRing } from "./crypto/signing-keys.js";
import { seedInternalProject } from "./services/seed.js";
import { openSigningKeyRing } from "./services/signing-keys.js";
import { startVerificationCodeSweeper } from "./services/verification-code-cleanup.js";
import { startFailedEmailsDigestTimer } from "./services/failed-emails-digest.js";
import { startTokenActivity } from "./services/token-activity.js";
import { startWebhookDelivery, type WebhookDelivery } from "./services/webhook-delivery.js";

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  /**
   * Stops accepting connections, answers every request in flight with what happened to it (http/drain.ts: started
   * ones finish, up to the hard limit; ones not started by the end of the grace get 503), then closes the pool if
   * the server opened it (a database handed in stays open for its owner).
   */
  close(): Promise<void>;
  /** This process's webhook delivery worker (services/webhook-delivery.ts): held and resumed by benches and tests. */
  webhookDelivery: Pick<WebhookDelivery, "pause" | "resume">;
}

// The PostgreSQL client's codes for a database that cannot be used at all: nothing answers, no such host,
// wrong password, no such database, not allowed to connect.
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "28P01", "28000", "3D000"]);

function unreachableDatabase(error: unknown, env: Env): StartupError | undefined {
  const code = (error as { code?: string } | undefined)?.code;
  if (!env.databaseUrl || !code || !UNREACHABLE_CODES.has(code)) return undefined;
  const url = new URL(env.databaseUrl);
  return new StartupError(
    `Cannot use the database ${url.host}${url.pathname} (LATCHKEY_DATABASE_URL): ${(error as Error).message || code}. Check that PostgreSQL runs there and the URL's user, password and database name.`,
  );
}

/** Connects the database, migrates, seeds, and listens. */
export async function startServer(env: Env, log: Logger, options: { db?: Db } = {}): Promise<RunningServer> {
  const ownsDb = !options.db;
  const phases = startPhases(log);
  const db =
    options.db ??
    (await connectDatabase(
      env.databaseUrl
        ? { kind: "postgres", url: env.databaseUrl, poolSize: env.databasePoolSize }
        : { kind: "pglite", dataDir: env.dataDir, template: { announce: (message) => log.info(message) } },
    ));
  phases.done(options.db ? "database handed in" : env.databaseUrl ? "PostgreSQL pool made" : "PGlite open");
  const applied = await migrate(db).catch((error: unknown) => {
    throw unreachableDatabase(error, env) ?? error;
  });
  if (applied.length > 0) log.info({ migrations: applied }, "applied migrations");
  phases.done("migration check", { applied: applied.length });
  await seedInternalProject(db, env);
  phases.done("internal project seeded");

  const feed = await openChangeFeed(db, changeSourceOf(db), log);
  phases.done("change feed open");
  // Access tokens are signed with the keys in the database (services/signing-keys.ts); made on first start.
  try {
    attachSigningKeyRing(env, await openSigningKeyRing(db, env, log, feed));
    phases.done("signing keys loaded");
  } catch (error) {
    await feed.close();
    if (ownsDb) await db.destroy();
    throw error;
  }
  // Whether a project has webhook endpoints, for every write; found through the database (see its comment).
  const detachWebhookListening = attachWebhookListeningCache(db, new WebhookListeningCache(feed, env.svix !== undefined));
  // The access tokens given are written as users' activity once a second (see its comment).
  const tokenActivity = startTokenActivity(db, log);
  const app = createApp({ db, env, log, caches: createCaches(feed), changes: feed });
  phases.done("caches and routes made");
  const drain = new Drain();
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: (request, nodeEnv) => drain.serve(request, () => app.fetch(request, nodeEnv)), port: env.port, hostname: env.host }, () => {
      s.off("error", reject);
      resolve(s);
    });
    // A port in use (or not ours to bind) fails the start, with what was opened for it closed again.
    s.once("error", reject);
  }).catch(async (error: unknown) => {
    await tokenActivity.stop();
    detachWebhookListening();
    await feed.close();
    if (ownsDb) await db.destroy();
    throw listenFailed(error, env);
  });
  phases.done("listening", { port: env.port });
  const connections = trackConnections(server as Server);
  // Every process sweeps spent codes; concurrent sweeps share the work (see the sweep's comment).
  const sweeper = startVerificationCodeSweeper(db, log);
  // Every process checks hourly for the day's failed-emails digest; one of them claims and sends it. With a cron
  // secret, an outside scheduler runs it (the route lists the last 24 hours): a timer too would mail it twice.
  const failedEmailsDigest = env.cronSecret ? undefined : startFailedEmailsDigestTimer({ db, env, log }, log);
  // Every process delivers webhooks; processes on one database share the due deliveries (see the worker's comment).
  // (With a real Svix server configured, it only finishes deliveries queued before; new events are forwarded there.)
  const webhookDelivery = startWebhookDelivery(db, env, log, feed);
  const svixForwarder = env.svix ? startSvixForwarder(db, env.svix, log, feed) : undefined;
  phases.done("background workers started");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      drain.startClosing();
      // Listening stops once the backlog is empty, at the latest a few seconds after the grace.
      const { listenerClosed, allClosed } = connections.stopListening(env.shutdownTimeoutMs + 5_000);
      const grace = setTimeout(() => {
        // Requests that have not started by now are answered 503 and never start; started ones are answered with
        // their result when done (http/drain.ts). A connection still open a second after every answer and after
        // listening stopped (a client that never reads its answer) is cut so shutdown cannot hang.
        const { inFlight, notStarted } = drain.counts();
        if (inFlight > 0) log.info({ inFlight, notStarted }, "shutdown grace over: requests not started are answered 503, started ones finish");
        void Promise.all([drain.giveUp(), listenerClosed]).then(() => setTimeout(() => connections.closeAll(), 1_000).unref());
      }, env.shutdownTimeoutMs);
      const hardLimit = setTimeout(() => {
        const { inFlight } = drain.counts();
        if (inFlight > 0) log.error({ inFlight }, "shutdown hard limit reached: requests still running are answered 500, their outcome unknown");
        drain.abandon();
      }, Math.max(env.shutdownHardLimitMs, env.shutdownTimeoutMs));
      grace.unref();
      hardLimit.unref();
      await allClosed;
      clearTimeout(grace);
      clearTimeout(hardLimit);
      await sweeper.stop();
      await failedEmailsDigest?.stop();
      await tokenActivity.stop();
      await webhookDelivery.stop();
      await svixForwarder?.stop();
      detachWebhookListening();
      await feed.close();
      if (ownsDb) await db.destroy();
    })());
  return { url: `http://localhost:${port}`, port, db, close, webhookDelivery };
}

/** A listen error the operator can fix (LATCHKEY_PORT in use or not allowed) as a StartupError; others as they are. */
function listenFailed(error: unknown, env: Env): unknown {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE") return new StartupError(`Port ${env.port} on ${env.host} is in use: stop what listens there or set LATCHKEY_PORT to a free port.`, { cause: error });
  if (code === "EACCES") return new StartupError(`Port ${env.port} on ${env.host} may not be used by this user: set LATCHKEY_PORT to a port above 1023.`, { cause: error });
  return error;
}
