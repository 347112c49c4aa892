import { HTTPException } from "hono/http-exception";
import { configOverrideLevelParams, configOverrideRead, configOverrideResetKeysBody, configOverrideUpdateBody, configRead } from "@latchkey/protocol/schemas";
import { checkConfigOverrideString, overrideSizeError } from "../config/config-override-check.js";
import { overrideConfig, renderConfigRead, renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { Db } from "../db/connect.js";
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
    handler: async (c, { auth, body }) => mergeOverride(c.get("deps").db, auth.project.id, body.config_override_string),
  }),
  defineRoute({
    method: "get",
    path: "/internal/config/override/:level",
    summary: "Read the project's configuration override",
    description:
      "2.8.108's `getConfigOverride`: the stored override as a JSON string. The reference keeps an override per level (project, branch, " +
      "environment); Latchkey keeps one, so every level reads the same.",
    tags: TAGS,
    access: ["admin"],
    request: { params: configOverrideLevelParams },
    response: { description: "The override as JSON text.", schema: configRead },
    handler: (_c, { auth }) => ({ config_string: JSON.stringify(withoutClientSecrets((auth.project.config_override ?? {}) as ConfigObject)) }),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/config/override/:level",
    summary: "Change the project's configuration at a level",
    description:
      "2.8.108's `updateConfig` and `update({ requirePublishableClientKey })`: as `PATCH /internal/config/override`, into the one override " +
      "every level shares here.",
    tags: TAGS,
    access: ["admin"],
    request: { params: configOverrideLevelParams, body: configOverrideUpdateBody },
    response: { description: "Changed.", schema: configOverrideRead },
    handler: async (c, { auth, body }) => mergeOverride(c.get("deps").db, auth.project.id, body.config_override_string),
  }),
  defineRoute({
    method: "post",
    path: "/internal/config/override/:level/reset-keys",
    summary: "Reset keys of the project's configuration override",
    description:
      "2.8.108's `resetConfigOverrideKeys`: each key (dotted, e.g. `auth.allowSignUp`) and everything under it goes back to its default, in the one " +
      "override every level shares here.",
    tags: TAGS,
    access: ["admin"],
    request: { params: configOverrideLevelParams, body: configOverrideResetKeysBody },
    response: { description: "Reset.", schema: configOverrideRead },
    handler: async (c, { auth, body }) => {
      if (body.keys.length > 0) {
        // A key set to null is dropped with what it shadows when the override is rendered: the default shows again.
        await mergeOverride(c.get("deps").db, auth.project.id, JSON.stringify(Object.fromEntries(body.keys.map((key) => [key, null]))));
      }
      return {};
    },
  }),
];

/**
 * The stored override without OAuth client secrets, which no read hands back (as `/internal/config`): keys named
 * `clientSecret`, or dotted keys ending in it, at any depth of the override's mixed dotted and nested form.
 */
function withoutClientSecrets(override: ConfigObject): ConfigObject {
  const kept: ConfigObject = {};
  for (const [key, value] of Object.entries(override)) {
    if (key === "clientSecret" || key.endsWith(".clientSecret")) continue;
    const nested = typeof value === "object" && value !== null && !Array.isArray(value);
    Object.defineProperty(kept, key, { value: nested ? withoutClientSecrets(value as ConfigObject) : value, writable: true, enumerable: true, configurable: true });
  }
  return kept;
}

/** Merges a checked `config_override_string` over the stored override, in one write; a refusal changes nothing. */
async function mergeOverride(db: Db, projectId: string, overrideString: string | undefined): Promise<Record<string, never>> {
  if (overrideString) {
    const parsed = checkConfigOverrideString(overrideString);
    if (!parsed.ok) throw new HTTPException(400, { message: parsed.error });
    await updateProject(db, projectId, {}, (stored) => {
      const merged = overrideConfig(stored as ConfigObject, parsed.override);
      const tooLarge = overrideSizeError(JSON.stringify(merged));
      if (tooLarge) throw new HTTPException(400, { message: tooLarge });
      return merged;
    });
  }
  return {};
}
