import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function internalProjectsRoutes() {
  return new Hono<AppEnv>();
}
