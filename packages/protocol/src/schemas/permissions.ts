import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";
import { newerField } from "./dialect-fields.js";
import { paginatedList, queryPageSize, unpaginatedList } from "./list-response.js";

/**
 * Wire shapes of permissions (SPEC.md §3 "Permission", §5 ids, §7 "Permissions"): the admin CRUD of
 * `/team-permission-definitions` and `/project-permission-definitions`, and the grants under
 * `/team-permissions` and `/project-permissions`.
 */

/** The protocol's system team permissions: the only ids that may start with `$`. */
export const TEAM_SYSTEM_PERMISSION_IDS = [
  "$update_team",
  "$delete_team",
  "$read_members",
  "$remove_members",
  "$invite_members",
  "$manage_api_keys",
] as const;
export type TeamSystemPermissionId = (typeof TEAM_SYSTEM_PERMISSION_IDS)[number];

/** Any permission id: custom, or one of the system team permissions. */
export const permissionId = z
  .string()
  .regex(/^\$?[a-z0-9_:]+$/, { message: 'Only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed' })
  .refine((id) => !id.startsWith("$") || (TEAM_SYSTEM_PERMISSION_IDS as readonly string[]).includes(id), { message: "Invalid system permission" });

/** The id of a permission an admin defines: never `$`. */
export const customPermissionId = z.string().regex(/^[a-z0-9_:]+$/, { message: 'Only lowercase letters, numbers, ":", "_" are allowed' });

/** `POST /{team,project}-permission-definitions` */
export const permissionDefinitionCreateBody = z.strictObject({
  id: customPermissionId,
  description: z.string().optional(),
  contained_permission_ids: z.array(permissionId).optional(),
});
export type PermissionDefinitionCreateBody = z.infer<typeof permissionDefinitionCreateBody>;

/** `PATCH /{team,project}-permission-definitions/{permission_id}`: a new id renames it (and its grants). */
export const permissionDefinitionUpdateBody = z.strictObject({
  id: customPermissionId.optional(),
  description: z.string().optional(),
  contained_permission_ids: z.array(permissionId).optional(),
});
export type PermissionDefinitionUpdateBody = z.infer<typeof permissionDefinitionUpdateBody>;

export const permissionDefinitionParams = z.object({ permission_id: permissionId });

/** A definition as admins read it; `description` is absent when none was given. */
export const permissionDefinitionRead = z.strictObject({
  id: z.string(),
  description: z.string().optional(),
  contained_permission_ids: z.array(z.string()),
});
export type PermissionDefinitionRead = z.infer<typeof permissionDefinitionRead>;

/** `GET /{team,project}-permission-definitions`, sorted by id. */
/**
 * `GET /{scope}-permission-definitions` (2.8.108): a page of `limit` definitions from `cursor` (the id of the first
 * one), of those whose id or description holds `query` (any case). Without `limit`, every definition in one list.
 */
export const permissionDefinitionListQuery = z.object({
  limit: newerField(queryPageSize.optional()),
  cursor: newerField(z.string().optional()),
  query: newerField(z.string().optional()),
});

export const permissionDefinitionListResponse = z.union([unpaginatedList(permissionDefinitionRead), paginatedList(permissionDefinitionRead)]);

const recursive = z.enum(["true", "false"]);

/**
 * `GET /team-permissions?team_id&user_id&permission_id&recursive` (clients: only their own user). Only
 * `recursive=true` adds the permissions contained in those granted.
 */
export const teamPermissionListQuery = z.object({
  team_id: uuid.optional(),
  user_id: userIdOrMe.optional(),
  permission_id: permissionId.optional(),
  recursive: recursive.optional(),
});

/** A grant takes no fields; the protocol still wants a JSON object as the body. */
export const permissionGrantBody = z.strictObject({});

/** `POST/DELETE /team-permissions/{team_id}/{user_id}/{permission_id}` (server) */
export const teamPermissionParams = z.object({ team_id: uuid, user_id: userIdOrMe, permission_id: permissionId });

export const teamPermissionRead = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  team_id: z.string(),
});
export type TeamPermissionRead = z.infer<typeof teamPermissionRead>;

export const teamPermissionListResponse = unpaginatedList(teamPermissionRead);

/** `GET /project-permissions?user_id&permission_id&recursive` (clients: only their own user; `recursive` as above). */
export const projectPermissionListQuery = z.object({
  user_id: userIdOrMe.optional(),
  permission_id: permissionId.optional(),
  recursive: recursive.optional(),
});

/** `POST/DELETE /project-permissions/{user_id}/{permission_id}` (server) */
export const projectPermissionParams = z.object({ user_id: userIdOrMe, permission_id: permissionId });

export const projectPermissionRead = z.strictObject({
  id: z.string(),
  user_id: z.string(),
});
export type ProjectPermissionRead = z.infer<typeof projectPermissionRead>;

export const projectPermissionListResponse = unpaginatedList(projectPermissionRead);
