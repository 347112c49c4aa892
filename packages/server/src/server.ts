import { serve, type ServerType } from "@hono/node-server";
import type { Logger } from "pino";
import { createApp } from "./app.js";
import { createCaches } from "./cache/caches.js";
import { openChangeFeed } from "./db/change-feed.js";
import { changeSourceOf, connectDatabase, type Db } from "./db/connect.js";
import { migrate } from "./db/migrate.js";
import type { Env } from "./env.js";
import { attachSigningKeyRing } from "./crypto/signing-keys.js";
import { seedInternalProject } from "./services/seed.js";
import { openSigningKeyRing } from "./services/signing-keys.js";
import { startVerificationCodeSweeper } from "./services/verification-code-cleanup.js";

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to the timeout), then closes the pool
   * if the server opened it (a database handed in stays open for its owner).
   */
  close(): Promise<void>;
}

/** Connects the database, migrates, seeds, and listens. */
export async function startServer(env: Env, log: Logger, options: { db?: Db } = {}): Promise<RunningServer> {
  const ownsDb = !options.db;
  const db =
    options.db ??
    (await connectDatabase(env.databaseUrl ? { kind: "postgres", url: env.databaseUrl } : { kind: "pglite", dataDir: env.dataDir }));
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ migrations: applied }, "applied migrations");
  await seedInternalProject(db, env);

  const feed = await openChangeFeed(db, changeSourceOf(db), log);
  // Access tokens are signed with the keys in the database (services/signing-keys.ts); made on first start.
  try {
    attachSigningKeyRing(env, await openSigningKeyRing(db, env, log, feed));
  } catch (error) {
    await feed.close();
    if (ownsDb) await db.destroy();
    throw error;
  }
  const app = createApp({ db, env, log, caches: createCaches(feed), changes: feed });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.port, hostname: env.host }, () => resolve(s));
  });
  // Every process sweeps spent codes; concurrent sweeps share the work (see the sweep's comment).
  const sweeper = startVerificationCodeSweeper(db, log);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          // In-flight requests got their time; cut what is left so shutdown cannot hang.
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }, env.shutdownTimeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      await sweeper.stop();
      await feed.close();
      if (ownsDb) await db.destroy();
    })());
  return { url: `http://localhost:${port}`, port, db, close };
}
