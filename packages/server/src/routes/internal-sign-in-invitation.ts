import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** Routes for sign-in invitation (issue 4) — being written in this session. */
export function signInInvitationRoutes() {
  return new Hono<AppEnv>();
}
