import { Hono } from "hono";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";

export function projectsRoutes() {
  return new Hono<AppEnv>().get("/projects/current", async (c) => {
    const auth = requireAccess(c, ["client", "server", "admin"]);
    return c.json({ id: auth.project.id, display_name: auth.project.display_name });
  });
}
