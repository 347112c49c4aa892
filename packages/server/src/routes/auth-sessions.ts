import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function sessionsRoutes() {
  return new Hono<AppEnv>();
}
