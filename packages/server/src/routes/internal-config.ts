import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { configOverrideUpdateBody } from "@latchkey/protocol/schemas";
import { overrideConfig, parseConfigOverrideString, renderConfigRead, renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { updateProject } from "../services/projects.js";

/**
 * `/internal/config` (admin): the project's whole config, and `PATCH /internal/config/override` which merges
 * `config_override_string` (JSON, dotted keys allowed) over the stored override. A bad override is a 400
 * with the protocol's plain-text message and changes nothing.
 */
export function internalConfigRoutes() {
  return new Hono<AppEnv>()
    .get("/internal/config", async (c) => {
      const { project } = requireAccess(c, ["admin"]);
      return c.json(renderConfigRead(renderProjectConfig(project.config_override as ConfigObject)));
    })
    .patch("/internal/config/override", async (c) => {
      const { project } = requireAccess(c, ["admin"]);
      const { body } = validate(c, { body: configOverrideUpdateBody });
      if (body.config_override_string) {
        const parsed = parseConfigOverrideString(body.config_override_string);
        if (!parsed.ok) throw new HTTPException(400, { message: parsed.error });
        await updateProject(c.get("deps").db, project.id, {}, (stored) => overrideConfig(stored as ConfigObject, parsed.override));
      }
      return c.json({});
    });
}
