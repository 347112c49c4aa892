import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

export function usersRoutes() {
  return new Hono<AppEnv>();
}
