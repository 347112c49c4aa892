import type { PermissionDefinitionRead } from "@latchkey/protocol/schemas";
import {
  permissionDefinitionFromWire,
  permissionDefinitionToWire,
  type PermissionDefinition,
  type PermissionDefinitionCreate,
  type PermissionDefinitionUpdate,
  type PermissionScope,
} from "../wire/permission-definitions.js";
import type { AppContext } from "./app-context.js";

const definitionsPath = (scope: PermissionScope, permissionId?: string) =>
  `/${scope}-permission-definitions${permissionId === undefined ? "" : `/${encodeURIComponent(permissionId)}`}`;

/**
 * The project's permission definitions (SPEC.md §7 "Permissions"), team or project scoped: what each means
 * and which others it contains. Ids are unique across both scopes, and containment never forms a cycle (the
 * server refuses with its message). Who gets which by default is in the project config (`updateAdminProject`).
 */
export function adminPermissionActions(ctx: AppContext) {
  return {
    /** The scope's definitions sorted by id; the team scope includes the six `$…` system permissions. */
    async listPermissionDefinitions(scope: PermissionScope): Promise<PermissionDefinition[]> {
      const { items } = await ctx.call<{ items: PermissionDefinitionRead[] }>({ method: "GET", path: definitionsPath(scope), session: null });
      return items.map(permissionDefinitionFromWire);
    },

    async createPermissionDefinition(scope: PermissionScope, create: PermissionDefinitionCreate): Promise<PermissionDefinition> {
      const wire = await ctx.call<PermissionDefinitionRead>({ method: "POST", path: definitionsPath(scope), body: permissionDefinitionToWire(create), session: null });
      return permissionDefinitionFromWire(wire);
    },

    async updatePermissionDefinition(scope: PermissionScope, permissionId: string, update: PermissionDefinitionUpdate): Promise<PermissionDefinition> {
      const wire = await ctx.call<PermissionDefinitionRead>({
        method: "PATCH",
        path: definitionsPath(scope, permissionId),
        body: permissionDefinitionToWire(update),
        session: null,
      });
      return permissionDefinitionFromWire(wire);
    },

    /** Deletes a definition; its grants go with it. */
    async deletePermissionDefinition(scope: PermissionScope, permissionId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: definitionsPath(scope, permissionId), session: null });
    },
  };
}
