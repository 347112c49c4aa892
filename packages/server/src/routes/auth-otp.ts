import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** Routes for magic link / one-time code sign-in (issue 4) — being written in this session. */
export function otpAuthRoutes() {
  return new Hono<AppEnv>();
}
