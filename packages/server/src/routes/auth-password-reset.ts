import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** Routes for password reset (issue 4) — being written in this session. */
export function passwordResetRoutes() {
  return new Hono<AppEnv>();
}
