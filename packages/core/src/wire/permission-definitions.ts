import type { PermissionDefinitionRead } from "@latchkey/protocol/schemas";

/** Team permissions hold in one team; project permissions hold across the project (SPEC.md §3 "Permission"). */
export type PermissionScope = "team" | "project";

/** A permission the project defines, with the permissions it contains (holding it means holding those too). */
export interface PermissionDefinition {
  id: string;
  description: string | null;
  containedPermissionIds: string[];
  /** The protocol's `$…` team permissions (`$update_team`, …): always there, never edited. */
  isSystem: boolean;
}

export interface PermissionDefinitionCreate {
  id: string;
  description?: string;
  containedPermissionIds?: string[];
}

/** A new `id` renames the permission, its grants and its place in the default lists. */
export type PermissionDefinitionUpdate = Partial<PermissionDefinitionCreate>;

export function permissionDefinitionFromWire(wire: PermissionDefinitionRead): PermissionDefinition {
  return {
    id: wire.id,
    description: wire.description ?? null,
    containedPermissionIds: wire.contained_permission_ids,
    isSystem: wire.id.startsWith("$"),
  };
}

export function permissionDefinitionToWire(input: PermissionDefinitionUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (input.id !== undefined) body.id = input.id;
  if (input.description !== undefined) body.description = input.description;
  if (input.containedPermissionIds !== undefined) body.contained_permission_ids = input.containedPermissionIds;
  return body;
}
