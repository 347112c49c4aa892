import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  permissionDefinitionCreateBody,
  permissionDefinitionParams,
  permissionDefinitionUpdateBody,
  projectPermissionListQuery,
  projectPermissionParams,
  teamPermissionListQuery,
  teamPermissionParams,
} from "@latchkey/protocol/schemas";
import { z } from "zod";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
import {
  createPermissionDefinition,
  deletePermissionDefinition,
  listPermissionDefinitions,
  updatePermissionDefinition,
} from "../services/permission-definitions.js";
import type { PermissionScope } from "../services/permission-graph.js";
import {
  grantProjectPermission,
  grantTeamPermission,
  listProjectPermissions,
  listTeamPermissions,
  revokeProjectPermission,
  revokeTeamPermission,
} from "../services/permissions.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const SERVER_ACCESS = ["server", "admin"] as const;
const ADMIN_ACCESS = ["admin"] as const;
// A grant takes no fields; the protocol still wants a JSON object as the body.
const emptyBody = z.strictObject({});

/**
 * Permissions (SPEC.md §7 "Permissions"): admins define team and project permissions; servers grant and
 * revoke them; anyone lists them, a client only for its own signed-in user. A developer's permission
 * check is the list filtered by `permission_id` (recursive unless `recursive=false`).
 */
export function permissionsRoutes() {
  const app = new Hono<AppEnv>();
  for (const scope of ["team", "project"] as const) definitionRoutes(app, scope);
  return app
    .get("/team-permissions", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: teamPermissionListQuery });
      const userId = listedUser(auth, query.user_id);
      const items = await listTeamPermissions(c.get("deps").db, auth.project.id, {
        teamId: query.team_id?.toLowerCase(),
        userId,
        permissionId: query.permission_id,
        recursive: query.recursive !== "false",
      });
      return c.json({ items, is_paginated: false }, 200);
    })
    .post("/team-permissions/:team_id/:user_id/:permission_id", async (c) => {
      const auth = requireAccess(c, SERVER_ACCESS);
      const { params } = validate(c, { params: teamPermissionParams, body: emptyBody });
      const userId = namedUser(auth, params.user_id);
      const granted = await grantTeamPermission(c.get("deps").db, auth.project.id, params.team_id.toLowerCase(), userId, params.permission_id);
      return c.json(granted, 201);
    })
    .delete("/team-permissions/:team_id/:user_id/:permission_id", async (c) => {
      const auth = requireAccess(c, SERVER_ACCESS);
      const { params } = validate(c, { params: teamPermissionParams });
      await revokeTeamPermission(c.get("deps").db, auth.project.id, params.team_id.toLowerCase(), namedUser(auth, params.user_id), params.permission_id);
      return c.json({ success: true }, 200);
    })
    .get("/project-permissions", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: projectPermissionListQuery });
      const userId = listedUser(auth, query.user_id);
      const items = await listProjectPermissions(c.get("deps").db, auth.project.id, {
        userId,
        permissionId: query.permission_id,
        recursive: query.recursive !== "false",
      });
      return c.json({ items, is_paginated: false }, 200);
    })
    .post("/project-permissions/:user_id/:permission_id", async (c) => {
      const auth = requireAccess(c, SERVER_ACCESS);
      const { params } = validate(c, { params: projectPermissionParams, body: emptyBody });
      const granted = await grantProjectPermission(c.get("deps").db, auth.project.id, namedUser(auth, params.user_id), params.permission_id);
      return c.json(granted, 201);
    })
    .delete("/project-permissions/:user_id/:permission_id", async (c) => {
      const auth = requireAccess(c, SERVER_ACCESS);
      const { params } = validate(c, { params: projectPermissionParams });
      await revokeProjectPermission(c.get("deps").db, auth.project.id, namedUser(auth, params.user_id), params.permission_id);
      return c.json({ success: true }, 200);
    });
}

/** `/{scope}-permission-definitions`: list, create, patch and delete (admin). */
function definitionRoutes(app: Hono<AppEnv>, scope: PermissionScope): void {
  const base = `/${scope}-permission-definitions`;
  app
    .get(base, async (c) => {
      const auth = requireAccess(c, ADMIN_ACCESS);
      const items = await listPermissionDefinitions(c.get("deps").db, auth.project.id, scope);
      return c.json({ items, is_paginated: false }, 200);
    })
    .post(base, async (c) => {
      const auth = requireAccess(c, ADMIN_ACCESS);
      const { body } = validate(c, { body: permissionDefinitionCreateBody });
      return c.json(await createPermissionDefinition(c.get("deps").db, auth.project.id, scope, body), 201);
    })
    .patch(`${base}/:permission_id`, async (c) => {
      const auth = requireAccess(c, ADMIN_ACCESS);
      const { params, body } = validate(c, { params: permissionDefinitionParams, body: permissionDefinitionUpdateBody });
      return c.json(await updatePermissionDefinition(c.get("deps").db, auth.project.id, scope, params.permission_id, body), 200);
    })
    .delete(`${base}/:permission_id`, async (c) => {
      const auth = requireAccess(c, ADMIN_ACCESS);
      const { params } = validate(c, { params: permissionDefinitionParams });
      await deletePermissionDefinition(c.get("deps").db, auth.project.id, scope, params.permission_id);
      return c.json({ success: true }, 200);
    });
}

/** `me` (the signed-in user) or an id, in a server's path. */
function namedUser(auth: RequestAuth, userId: string): string {
  if (userId !== "me") return userId.toLowerCase();
  if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return auth.user.id;
}

/**
 * Whose permissions a list shows. A client must name its own signed-in user (`me` or its id): listing
 * anyone else's, or everyone's, is refused. Servers may leave `user_id` out to list every holder.
 */
function listedUser(auth: RequestAuth, userId: string | undefined): string | undefined {
  const resolved = userId === undefined ? undefined : namedUser(auth, userId);
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (resolved !== auth.user.id) {
      throw new HTTPException(403, { message: 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user' });
    }
  }
  return resolved;
}
