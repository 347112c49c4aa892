import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  permissionDefinitionCreateBody,
  permissionDefinitionListQuery,
  permissionDefinitionListResponse,
  permissionDefinitionParams,
  permissionDefinitionRead,
  permissionDefinitionUpdateBody,
  permissionGrantBody,
  projectPermissionListQuery,
  projectPermissionListResponse,
  projectPermissionParams,
  projectPermissionRead,
  successResponse,
  teamPermissionListQuery,
  teamPermissionListResponse,
  teamPermissionParams,
  teamPermissionRead,
} from "@latchkey/protocol/schemas";
import type { RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute, type Route } from "../http/route.js";
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

const SERVER_ACCESS = ["server", "admin"] as const;
const ADMIN_ACCESS = ["admin"] as const;
const TAGS = ["Permissions"];
const GRANT_ERRORS = [KnownErrors.PermissionNotFound, KnownErrors.PermissionScopeMismatch, KnownErrors.CannotGetOwnUserWithoutUser];

/**
 * Permissions (SPEC.md §7 "Permissions"): admins define team and project permissions; servers grant and
 * revoke them; anyone lists them, a client only for its own signed-in user. A list shows the permissions
 * granted directly, and with `recursive=true` also those they contain: a developer's permission check is
 * the recursive list filtered by `permission_id`.
 */
export const permissionsRoutes: Route[] = [
  ...definitionRoutes("team"),
  ...definitionRoutes("project"),
  defineRoute({
    method: "get",
    path: "/team-permissions",
    summary: "List team permissions",
    description:
      "Filtered by `team_id`, `user_id` and `permission_id`; `(team_id, user_id, id)` identifies a grant. Only `recursive=true` adds contained permissions. " +
      "A client lists only its own user's (`user_id=me`).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: teamPermissionListQuery },
    response: { description: "The permissions, by team, user and id.", schema: teamPermissionListResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query }) => {
      const items = await listTeamPermissions(c.get("deps").db, auth.project.id, {
        teamId: query.team_id?.toLowerCase(),
        userId: listedUser(auth, query.user_id),
        permissionId: query.permission_id,
        recursive: query.recursive === "true",
      });
      return { items, is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/team-permissions/:team_id/:user_id/:permission_id",
    summary: "Grant a team permission",
    description: "The user must be a member of the team; the permission a defined team permission.",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: teamPermissionParams, body: permissionGrantBody },
    response: { status: 201, description: "The grant.", schema: teamPermissionRead },
    errors: [...GRANT_ERRORS, KnownErrors.UserIdDoesNotExist, KnownErrors.TeamMembershipNotFound],
    handler: async (c, { auth, params }) =>
      grantTeamPermission(c.get("deps").db, auth.project.id, params.team_id.toLowerCase(), namedUser(auth, params.user_id), params.permission_id),
  }),
  defineRoute({
    method: "delete",
    path: "/team-permissions/:team_id/:user_id/:permission_id",
    summary: "Revoke a team permission",
    description: "Only a directly granted permission can be revoked.",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: teamPermissionParams },
    response: { description: "Revoked.", schema: successResponse },
    errors: [KnownErrors.UserIdDoesNotExist, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionNotFound, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      await revokeTeamPermission(c.get("deps").db, auth.project.id, params.team_id.toLowerCase(), namedUser(auth, params.user_id), params.permission_id);
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "get",
    path: "/project-permissions",
    summary: "List project permissions",
    description:
      "Filtered by `user_id` and `permission_id`; `(user_id, id)` identifies a grant. Only `recursive=true` adds contained permissions. " +
      "A client lists only its own user's (`user_id=me`).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: projectPermissionListQuery },
    response: { description: "The permissions, by user and id.", schema: projectPermissionListResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query }) => {
      const items = await listProjectPermissions(c.get("deps").db, auth.project.id, {
        userId: listedUser(auth, query.user_id),
        permissionId: query.permission_id,
        recursive: query.recursive === "true",
      });
      return { items, is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/project-permissions/:user_id/:permission_id",
    summary: "Grant a project permission",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: projectPermissionParams, body: permissionGrantBody },
    response: { status: 201, description: "The grant.", schema: projectPermissionRead },
    errors: [...GRANT_ERRORS, KnownErrors.UserIdDoesNotExist],
    handler: async (c, { auth, params }) => grantProjectPermission(c.get("deps").db, auth.project.id, namedUser(auth, params.user_id), params.permission_id),
  }),
  defineRoute({
    method: "delete",
    path: "/project-permissions/:user_id/:permission_id",
    summary: "Revoke a project permission",
    description: "Only a directly granted permission can be revoked.",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: projectPermissionParams },
    response: { description: "Revoked.", schema: successResponse },
    errors: [KnownErrors.UserIdDoesNotExist, KnownErrors.PermissionNotFound, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      await revokeProjectPermission(c.get("deps").db, auth.project.id, namedUser(auth, params.user_id), params.permission_id);
      return { success: true } as const;
    },
  }),
];

/** `/{scope}-permission-definitions`: list, create, patch and delete (admin). */
function definitionRoutes(scope: PermissionScope): Route[] {
  const base = `/${scope}-permission-definitions`;
  const what = `${scope} permission definition`;
  return [
    defineRoute({
      method: "get",
      path: base,
      summary: `List ${what}s`,
      description:
        (scope === "team" ? "Sorted by id; the six system permissions (`$update_team`, …) are included." : "Sorted by id.") +
        " With `limit` (2.8.108), a page from `cursor` (the id of the page's first definition), `pagination.next_cursor` naming the next one's; `query` keeps the definitions whose id or description holds it, in any case.",
      tags: TAGS,
      access: ADMIN_ACCESS,
      request: { query: permissionDefinitionListQuery },
      response: { description: "The definitions.", schema: permissionDefinitionListResponse },
      handler: async (c, { auth, query }) => {
        const all = await listPermissionDefinitions(c.get("deps").db, auth.project.id, scope);
        const needle = query.query?.toLowerCase();
        const found = needle === undefined ? all : all.filter((d) => d.id.toLowerCase().includes(needle) || (d.description ?? "").toLowerCase().includes(needle));
        if (query.limit === undefined) return { items: found, is_paginated: false } as const;
        // Sorted by id, so a cursor that names a definition deleted since still starts the page where it stood.
        const from = query.cursor === undefined ? found : found.filter((d) => d.id >= query.cursor!);
        const next = from[query.limit];
        return { items: from.slice(0, query.limit), is_paginated: true, pagination: { next_cursor: next?.id ?? null } } as const;
      },
    }),
    defineRoute({
      method: "post",
      path: base,
      summary: `Create a ${what}`,
      description: "Ids are unique across both scopes.",
      tags: TAGS,
      access: ADMIN_ACCESS,
      request: { body: permissionDefinitionCreateBody },
      response: { status: 201, description: "The new definition.", schema: permissionDefinitionRead },
      errors: [KnownErrors.PermissionIdAlreadyExists, KnownErrors.ContainedPermissionNotFound],
      handler: async (c, { auth, body }) => createPermissionDefinition(c.get("deps").db, auth.project.id, scope, body),
    }),
    defineRoute({
      method: "patch",
      path: `${base}/:permission_id`,
      summary: `Update a ${what}`,
      description: "A new `id` renames the permission, its grants and its place in the default permission lists.",
      tags: TAGS,
      access: ADMIN_ACCESS,
      request: { params: permissionDefinitionParams, body: permissionDefinitionUpdateBody },
      response: { description: "The updated definition.", schema: permissionDefinitionRead },
      errors: [KnownErrors.PermissionNotFound, KnownErrors.PermissionIdAlreadyExists, KnownErrors.ContainedPermissionNotFound],
      handler: async (c, { auth, params, body }) => updatePermissionDefinition(c.get("deps").db, auth.project.id, scope, params.permission_id, body),
    }),
    defineRoute({
      method: "delete",
      path: `${base}/:permission_id`,
      summary: `Delete a ${what}`,
      description: "Its grants go with it.",
      tags: TAGS,
      access: ADMIN_ACCESS,
      request: { params: permissionDefinitionParams },
      response: { description: "Deleted.", schema: successResponse },
      errors: [KnownErrors.PermissionNotFound],
      handler: async (c, { auth, params }) => {
        await deletePermissionDefinition(c.get("deps").db, auth.project.id, scope, params.permission_id);
        return { success: true } as const;
      },
    }),
  ];
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
