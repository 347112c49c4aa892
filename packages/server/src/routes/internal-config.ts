import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function internalConfigRoutes() {
  return new Hono<AppEnv>();
}
