import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** The hosted purchase page a purchase URL opens, and its return page (issue 32). */
export function purchasePageRoutes() {
  return new Hono<AppEnv>();
}
