import type { Context } from "hono";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { adminProjectCreateBody } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { legacyConfigUpdateToOverride, renderAdminProjectRead } from "../config/legacy-config.js";
import { overrideConfig, renderProjectConfig, validateProjectConfig, type ConfigObject } from "../config/project-config.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
import { createOwnedProject, listOwnedProjects, transferProject, verifyAdminAccessToken } from "../services/project-ownership.js";
import { INTERNAL_PROJECT_ID, NEW_PROJECT_CONFIG_OVERRIDE, type ProjectRow } from "../services/projects.js";
import type { UserRow } from "../services/user-rows.js";

const transferBody = z.strictObject({ project_id: z.string(), new_team_id: z.string() });

const adminRead = (project: ProjectRow) => renderAdminProjectRead(project, renderProjectConfig(project.config_override as ConfigObject));

/**
 * The signed-in internal-project user's own projects (issue 3): `GET`/`POST /internal/projects`, which the
 * protocol's client calls with the internal project's client access and the user's session, and
 * `POST /internal/projects/transfer`, which it calls with admin access on the project being moved.
 */
export function internalProjectsRoutes() {
  return new Hono<AppEnv>()
    .get("/internal/projects", async (c) => {
      const user = internalUser(requireAccess(c, ["client", "server", "admin"]));
      const projects = await listOwnedProjects(c.get("deps").db, user.id);
      return c.json({ items: projects.map(adminRead), is_paginated: false });
    })
    .post("/internal/projects", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: adminProjectCreateBody });
      const user = internalUser(auth);
      const configOverride = overrideConfig(NEW_PROJECT_CONFIG_OVERRIDE as ConfigObject, body.config ? legacyConfigUpdateToOverride(body.config) : {});
      const check = validateProjectConfig(configOverride);
      if (!check.ok) throw new HTTPException(400, { message: check.error });
      const project = await createOwnedProject(c.get("deps").db, user.id, body.owner_team_id, {
        displayName: body.display_name,
        description: body.description ?? null,
        isProductionMode: body.is_production_mode,
        logoUrl: body.logo_url,
        fullLogoUrl: body.full_logo_url,
        configOverride,
      });
      return c.json(adminRead(project), 201);
    })
    .post("/internal/projects/transfer", async (c) => {
      const auth = requireAccess(c, ["admin"]);
      const { body } = validate(c, { body: transferBody });
      const user = await transferringUser(c, auth);
      await transferProject(c.get("deps").db, user.id, body.project_id, body.new_team_id);
      return c.json({ success: true });
    });
}

/** The signed-in user of a request on the internal project; other projects cannot own projects. */
function internalUser(auth: RequestAuth): UserRow {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownErrors.ExpectedInternalProject();
  if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
  return auth.user;
}

/**
 * Who moves the project. The protocol's client sends the transfer as an admin request on the project
 * itself, authenticated by the owner's admin access token (with the owner's internal session as the access
 * token), so the owner is the token's user. On the internal project, an admin request with a signed-in
 * user works too. Either way the service checks the user's membership of the old and the new team.
 */
async function transferringUser(c: Context<AppEnv>, auth: RequestAuth): Promise<UserRow> {
  const adminAccessToken = c.req.header("x-stack-admin-access-token");
  if (adminAccessToken) {
    const { db, env } = c.get("deps");
    // The pipeline has already accepted it for this project; it is resolved again here only to learn its user.
    return verifyAdminAccessToken(db, env, adminAccessToken, auth.project.id);
  }
  if (auth.project.id === INTERNAL_PROJECT_ID && auth.user) return auth.user;
  throw new KnownErrors.UserAuthenticationRequired();
}
