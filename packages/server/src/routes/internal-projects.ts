import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { adminProjectCreateBody, adminProjectListResponse, adminProjectRead, projectTransferBody, projectTransferResponse } from "@latchkey/protocol/schemas";
import { applyLegacyConfigUpdate, renderAdminProjectRead } from "../config/legacy-config.js";
import { renderProjectConfig, validateProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { createOwnedProject, listOwnedProjects, transferProject, verifyAdminAccessToken } from "../services/project-ownership.js";
import { INTERNAL_PROJECT_ID, NEW_PROJECT_CONFIG_OVERRIDE, type ProjectRow } from "../services/projects.js";
import type { UserRow } from "../services/user-rows.js";
import { protocolHeader } from "../http/dialect.js";

const TAGS = ["Projects"];
const adminRead = (project: ProjectRow) => renderAdminProjectRead(project, renderProjectConfig(project.config_override as ConfigObject));

/**
 * The signed-in internal-project user's own projects (issue 3): `GET`/`POST /internal/projects`, which the
 * protocol's client calls with the internal project's client access and the user's session, and
 * `POST /internal/projects/transfer`, which moves a project to another of the user's teams.
 */
export const internalProjectsRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/projects",
    summary: "List the signed-in user's projects",
    description: "Projects owned by any team of the signed-in user of the `internal` project, oldest first.",
    tags: TAGS,
    access: ANY_ACCESS,
    response: { description: "The projects, in the admin's shape.", schema: adminProjectListResponse },
    errors: [KnownErrors.ExpectedInternalProject, KnownErrors.UserAuthenticationRequired],
    handler: async (c, { auth }) => {
      const projects = await listOwnedProjects(c.get("deps").db, internalUser(auth).id);
      return { items: projects.map(adminRead), is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/internal/projects",
    summary: "Create a project",
    description: "Creates a project owned by one of the signed-in user's teams, without keys (the owner makes them with admin access).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: adminProjectCreateBody },
    response: { status: 201, description: "The new project.", schema: adminProjectRead },
    errors: [KnownErrors.ExpectedInternalProject, KnownErrors.UserAuthenticationRequired, KnownErrors.TeamMembershipNotFound],
    handler: async (c, { auth, body }) => {
      const user = internalUser(auth);
      const check = body.config ? applyLegacyConfigUpdate(NEW_PROJECT_CONFIG_OVERRIDE as ConfigObject, body.config) : validateProjectConfig(NEW_PROJECT_CONFIG_OVERRIDE);
      if (!check.ok) throw new HTTPException(400, { message: check.error });
      const project = await createOwnedProject(c.get("deps").db, user.id, body.owner_team_id, {
        displayName: body.display_name,
        description: body.description ?? null,
        isProductionMode: body.is_production_mode,
        isDevelopmentEnvironment: body.is_development_environment,
        logoUrl: body.logo_url,
        // Each version names it its own way (and never both: the other name is refused).
        fullLogoUrl: body.logo_full_url !== undefined ? body.logo_full_url : body.full_logo_url,
        logoDarkModeUrl: body.logo_dark_mode_url,
        logoFullDarkModeUrl: body.logo_full_dark_mode_url,
        onboardingStatus: body.onboarding_status,
        configOverride: check.override,
      });
      return adminRead(project);
    },
  }),
  defineRoute({
    method: "post",
    path: "/internal/projects/transfer",
    summary: "Move a project to another team",
    description:
      "Any access type on the `internal` project with a signed-in user, who must hold `team_admin` in the team owning the project " +
      "and be a member of the new one. The published client sends it as an admin request on the project itself with the owner's " +
      "admin access token, which works too.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: projectTransferBody },
    response: { description: "Moved (`success` is the string `\"true\"`).", schema: projectTransferResponse },
    errors: [
      KnownErrors.ExpectedInternalProject,
      KnownErrors.UserAuthenticationRequired,
      KnownErrors.ProjectNotFound,
      KnownErrors.TeamPermissionRequired,
      KnownErrors.TeamMembershipNotFound,
    ],
    handler: async (c, { auth, body }) => {
      const user = await transferringUser(c, auth);
      await transferProject(c.get("deps").db, user.id, body.project_id, body.new_team_id);
      return { success: "true" } as const;
    },
  }),
];

/** The signed-in user of a request on the internal project; other projects cannot own projects. */
function internalUser(auth: RequestAuth): UserRow {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownErrors.ExpectedInternalProject();
  if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
  return auth.user;
}

/**
 * Who moves the project: the signed-in user of a request on the internal project, or, as the protocol's
 * client sends it (an admin request on the project being moved), the user of the owner's admin access token,
 * which the pipeline has already accepted for this project; it is resolved again here only to learn its user.
 */
async function transferringUser(c: Context<AppEnv>, auth: RequestAuth): Promise<UserRow> {
  const adminAccessToken = protocolHeader(c, "admin-access-token");
  if (auth.project.id !== INTERNAL_PROJECT_ID && adminAccessToken) {
    const { db, env } = c.get("deps");
    return verifyAdminAccessToken(db, env, adminAccessToken, auth.project.id);
  }
  return internalUser(auth);
}
