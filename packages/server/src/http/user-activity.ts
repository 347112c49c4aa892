import type { Context, MiddlewareHandler } from "hono";
import { recordUserActivity } from "../services/user-activity.js";
import { trustedProxyCountry } from "./client-ip.js";
import type { AppEnv } from "./context.js";

/**
 * Records the signed-in user's activity for the day, with the country the edge reports (services/user-activity.ts),
 * before the handler runs. The country is believed only from a trusted proxy (http/client-ip.ts), as for sessions:
 * from anyone else the header is whatever the caller wrote, and would skew the metrics' countries. Metrics are not worth failing a request for: a failed write is logged and ignored.
 */
export function userActivity(): MiddlewareHandler<AppEnv> {
  return async function userActivity(c, next) {
    await recordRequestActivity(c);
    await next();
  };
}

/** What `userActivity` does before the handler (app.ts runs it within its one middleware for API routes). */
export async function recordRequestActivity(c: Context<AppEnv>): Promise<void> {
  const auth = c.get("auth");
  if (auth?.user) {
    const country = trustedProxyCountry(c) ?? null;
    try {
      await recordUserActivity(c.get("deps").db, { projectId: auth.project.id, userId: auth.user.id, country });
    } catch (error) {
      c.get("log").warn({ err: error }, "user activity not recorded");
    }
  }
}
