import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { adminProjectRead, adminProjectUpdateBody, clientProjectRead, successResponse } from "@latchkey/protocol/schemas";
import { applyLegacyConfigUpdate, renderAdminProjectRead, renderClientProjectRead } from "../config/legacy-config.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { defineRoute } from "../http/route.js";
import { deleteProject, INTERNAL_PROJECT_ID, updateProject, type ProjectRow } from "../services/projects.js";

const TAGS = ["Projects"];
const configOf = (project: ProjectRow) => renderProjectConfig(project.config_override as ConfigObject);

/**
 * The current project (SPEC.md §3 "Project"): `GET /projects/current` for every caller (what a client may
 * know, e.g. its sign-in methods), and `GET/PATCH/DELETE /internal/projects/current` for admins, with the
 * legacy `config` sub-object.
 */
export const projectsRoutes = [
  defineRoute({
    method: "get",
    path: "/projects/current",
    summary: "Read the current project",
    description: "Display name and the sign-in methods a client may offer.",
    tags: TAGS,
    access: ["client", "server", "admin"],
    response: { description: "The project, in the client's shape.", schema: clientProjectRead },
    handler: (_c, { auth }) => renderClientProjectRead(auth.project, configOf(auth.project)),
  }),
  defineRoute({
    method: "get",
    path: "/internal/projects/current",
    summary: "Read the current project with its configuration",
    tags: TAGS,
    access: ["admin"],
    response: { description: "The project with its legacy `config`.", schema: adminProjectRead },
    handler: (_c, { auth }) => renderAdminProjectRead(auth.project, configOf(auth.project)),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/projects/current",
    summary: "Update the current project",
    description: "Omitted fields are left unchanged; lists in `config` (domains, OAuth providers, default permissions) replace the stored ones.",
    tags: TAGS,
    access: ["admin"],
    request: { body: adminProjectUpdateBody },
    response: { description: "The updated project.", schema: adminProjectRead },
    handler: async (c, { auth, body }) => {
      const { config, ...fields } = body;
      const updated = await updateProject(
        c.get("deps").db,
        auth.project.id,
        {
          displayName: fields.display_name,
          description: fields.description,
          logoUrl: fields.logo_url,
          // Each version names it its own way (and never both: the other name is refused).
          fullLogoUrl: fields.logo_full_url !== undefined ? fields.logo_full_url : fields.full_logo_url,
          logoDarkModeUrl: fields.logo_dark_mode_url,
          logoFullDarkModeUrl: fields.logo_full_dark_mode_url,
          isProductionMode: fields.is_production_mode,
          onboardingStatus: fields.onboarding_status,
        },
        config
          ? (stored) => {
              const check = applyLegacyConfigUpdate(stored as ConfigObject, config);
              if (!check.ok) throw new HTTPException(400, { message: check.error });
              return check.override;
            }
          : undefined,
      );
      return renderAdminProjectRead(updated, configOf(updated));
    },
  }),
  defineRoute({
    method: "delete",
    path: "/internal/projects/current",
    summary: "Delete the current project",
    description: "Deletes the project and everything it holds (users, teams, keys, configuration). The `internal` project cannot be deleted.",
    tags: TAGS,
    access: ["admin"],
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.ProjectNotFound],
    handler: async (c, { auth }) => {
      // The internal project administers every other one; without it nobody could sign in to manage them.
      if (auth.project.id === INTERNAL_PROJECT_ID) throw new HTTPException(400, { message: "The internal project cannot be deleted." });
      await deleteProject(c.get("deps").db, auth.project.id);
      return { success: true } as const;
    },
  }),
];
