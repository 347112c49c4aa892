import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function jwksRoutes() {
  return new Hono<AppEnv>();
}
