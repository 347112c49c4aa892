import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function anonymousAuthRoutes() {
  return new Hono<AppEnv>();
}
