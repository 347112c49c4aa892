import { HTTPException } from "hono/http-exception";
import { configOverrideRead, configOverrideUpdateBody, configRead } from "@latchkey/protocol/schemas";
import { overrideConfig, parseConfigOverrideString, renderConfigRead, renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { defineRoute } from "../http/route.js";
import { updateProject } from "../services/projects.js";

const TAGS = ["Projects"];

/**
 * `/internal/config` (admin): the project's whole config, and `PATCH /internal/config/override` which merges
 * `config_override_string` (JSON, dotted keys allowed) over the stored override. A bad override is a 400
 * with the protocol's plain-text message and changes nothing.
 */
export const internalConfigRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/config",
    summary: "Read the project's configuration",
    description: "The complete configuration (the stored override over the defaults), camelCase, as a JSON string.",
    tags: TAGS,
    access: ["admin"],
    response: { description: "The configuration as JSON text.", schema: configRead },
    handler: (_c, { auth }) => renderConfigRead(renderProjectConfig(auth.project.config_override as ConfigObject)),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/config/override",
    summary: "Change the project's configuration",
    description: "Merges `config_override_string` (a JSON object; dotted keys allowed, `null` removes) over the stored override.",
    tags: TAGS,
    access: ["admin"],
    request: { body: configOverrideUpdateBody },
    response: { description: "Changed.", schema: configOverrideRead },
    handler: async (c, { auth, body }) => {
      if (body.config_override_string) {
        const parsed = parseConfigOverrideString(body.config_override_string);
        if (!parsed.ok) throw new HTTPException(400, { message: parsed.error });
        await updateProject(c.get("deps").db, auth.project.id, {}, (stored) => overrideConfig(stored as ConfigObject, parsed.override));
      }
      return {};
    },
  }),
];
