import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/** `GET /api/v1`: the protocol's greeting, which also says how the request was authenticated. */
export function welcomeRoutes() {
  return new Hono<AppEnv>().get("/", (c) => {
    const auth = c.get("auth");
    const authentication = auth ? `${auth.type[0]!.toUpperCase()}${auth.type.slice(1)}\n  Project: ${auth.project.id}\n  User: None` : "None";
    return c.text(`Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: ${authentication}`);
  });
}
