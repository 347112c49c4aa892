import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";
import { pendingMigrations } from "../db/migrate.js";

// A load balancer waits about this long; a database that answers later counts as unreachable.
const READY_TIMEOUT_MS = 1_000;

/**
 * For load balancers and orchestrators, outside the API: `/health` says the process is alive and serving
 * HTTP (restart it when this fails); `/ready` says it can do its work — the database answers within a second
 * and has every migration this code expects (send it traffic only then).
 */
export function healthRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/health", (c) => c.json({ status: "ok" }))
    .get("/ready", async (c) => {
      const { db, log } = c.get("deps");
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), READY_TIMEOUT_MS)));
      try {
        const pending = await Promise.race([pendingMigrations(db), timeout]);
        if (pending === "timeout") return c.json({ status: "unavailable", reason: "The database did not answer within 1 s." }, 503);
        if (pending.length > 0) return c.json({ status: "unavailable", reason: `Migrations not applied: ${pending.join(", ")}.` }, 503);
        return c.json({ status: "ready" });
      } catch (error) {
        log.warn({ err: error }, "readiness check failed");
        return c.json({ status: "unavailable", reason: "The database cannot be reached." }, 503);
      } finally {
        clearTimeout(timer);
      }
    });
}
