import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { adminProjectUpdateBody } from "@latchkey/protocol/schemas";
import { legacyConfigUpdateToOverride, renderAdminProjectRead, renderClientProjectRead } from "../config/legacy-config.js";
import { overrideConfig, renderProjectConfig, validateProjectConfig, type ConfigObject } from "../config/project-config.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { deleteProject, INTERNAL_PROJECT_ID, updateProject, type ProjectRow } from "../services/projects.js";

const configOf = (project: ProjectRow) => renderProjectConfig(project.config_override as ConfigObject);

/** `/projects/current` (every caller, public shape) and `/internal/projects/current` (admin, with the legacy config). */
export function projectsRoutes() {
  return new Hono<AppEnv>()
    .get("/projects/current", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      return c.json(renderClientProjectRead(project, configOf(project)));
    })
    .get("/internal/projects/current", async (c) => {
      const { project } = requireAccess(c, ["admin"]);
      return c.json(renderAdminProjectRead(project, configOf(project)));
    })
    .patch("/internal/projects/current", async (c) => {
      const { project } = requireAccess(c, ["admin"]);
      const { body } = validate(c, { body: adminProjectUpdateBody });
      const { config, ...fields } = body;
      const updated = await updateProject(
        c.get("deps").db,
        project.id,
        {
          displayName: fields.display_name,
          description: fields.description,
          logoUrl: fields.logo_url,
          fullLogoUrl: fields.full_logo_url,
          isProductionMode: fields.is_production_mode,
        },
        config
          ? (stored) => {
              const merged = overrideConfig(stored as ConfigObject, legacyConfigUpdateToOverride(config));
              const check = validateProjectConfig(merged);
              if (!check.ok) throw new HTTPException(400, { message: check.error });
              return merged;
            }
          : undefined,
      );
      return c.json(renderAdminProjectRead(updated, configOf(updated)));
    })
    .delete("/internal/projects/current", async (c) => {
      const { project } = requireAccess(c, ["admin"]);
      // The internal project administers every other one; without it nobody could sign in to manage them.
      if (project.id === INTERNAL_PROJECT_ID) throw new HTTPException(400, { message: "The internal project cannot be deleted." });
      await deleteProject(c.get("deps").db, project.id);
      return c.json({ success: true });
    });
}
