import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** Routes for notification preferences and unsubscribe (issue 4) — being written in this session. */
export function notificationPreferencesRoutes() {
  return new Hono<AppEnv>();
}
