import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** Routes for contact channels and email verification (issue 4) — being written in this session. */
export function contactChannelsRoutes() {
  return new Hono<AppEnv>();
}
