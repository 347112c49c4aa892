import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function passwordAuthRoutes() {
  return new Hono<AppEnv>();
}
