import { HTTPException } from "hono/http-exception";
import { configOverrideRead, configOverrideUpdateBody, configRead } from "@latchkey/protocol/schemas";
import { checkConfigOverrideString, overrideSizeError } from "../config/config-override-check.js";
import { overrideConfig, renderConfigRead, renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { defineRoute } from "../http/route.js";
import { updateProject } from "../services/projects.js";

const TAGS = ["Projects"];

/**
 * `/internal/config` (admin): the project's whole config, and `PATCH /internal/config/override` which merges
 * `config_override_string` (JSON, dotted keys allowed) over the stored override. It is the one store of the
 * project's settings: the legacy project routes, the payments and data-vault sections and the dashboard all
 * write the same override. A bad override is a 400 with the reference's plain-text message
 * (config/config-override-check.ts) and changes nothing.
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
    description:
      "Merges `config_override_string` (a JSON object; a dotted key replaces that key and everything under it, `null` removes) " +
      "over the stored override. Refusals are a 400 in plain text: `Invalid config JSON`, or a message prefixed `[ERROR]`, " +
      "`[FORMAT ERROR]` or `[WARNING]`; the stored override may hold at most 5 MB of JSON.",
    tags: TAGS,
    access: ["admin"],
    request: { body: configOverrideUpdateBody },
    response: { description: "Changed.", schema: configOverrideRead },
    handler: async (c, { auth, body }) => {
      if (body.config_override_string) {
        const parsed = checkConfigOverrideString(body.config_override_string);
        if (!parsed.ok) throw new HTTPException(400, { message: parsed.error });
        await updateProject(c.get("deps").db, auth.project.id, {}, (stored) => {
          const merged = overrideConfig(stored as ConfigObject, parsed.override);
          const tooLarge = overrideSizeError(JSON.stringify(merged));
          if (tooLarge) throw new HTTPException(400, { message: tooLarge });
          return merged;
        });
      }
      return {};
    },
  }),
];
