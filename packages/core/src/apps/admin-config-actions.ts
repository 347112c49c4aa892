import type { ConfigRead } from "@latchkey/protocol/schemas";
import type { AppContext } from "./app-context.js";

/**
 * A project's complete configuration, camelCase, as `GET /internal/config` renders it (the stored override
 * layered over the defaults). OAuth client secrets are write-only and never appear in it.
 */
export type ProjectConfigObject = Record<string, unknown>;

/**
 * A change to the project's configuration override: keys may be dotted paths (`"auth.oauth.providers.github"`),
 * values are merged over the stored override, and `null` removes a key.
 */
export type ConfigOverrideChange = Record<string, unknown>;

/** An admin app's project configuration: `/internal/config` and `/internal/config/override`. */
export function adminConfigActions(ctx: AppContext) {
  return {
    /** The project's complete configuration (without OAuth client secrets). */
    async getConfig(): Promise<ProjectConfigObject> {
      const { config_string } = await ctx.call<ConfigRead>({ method: "GET", path: "/internal/config", session: null });
      return JSON.parse(config_string) as ProjectConfigObject;
    },

    /**
     * Merges `change` over the project's stored override. The server checks it against the config schema; a
     * refused change (unknown key, wrong type, bad trusted domain…) rejects with the server's message and
     * changes nothing.
     */
    async updateConfigOverride(change: ConfigOverrideChange): Promise<void> {
      await ctx.call<Record<string, never>>({
        method: "PATCH",
        path: "/internal/config/override",
        body: { config_override_string: JSON.stringify(change) },
        session: null,
      });
    },
  };
}
