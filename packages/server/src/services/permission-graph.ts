import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";

/**
 * The permission definitions of a project, as the protocol keeps them: in the project's config
 * (`rbac.permissions`, each with a scope and contained permission ids), plus the six system team
 * permissions that every project has. A compiled graph answers "which permissions does holding these
 * grant" without touching the database; it is cached per project and config version (see
 * `cachedGraph`), so a check on the hot path costs one small query: the member's direct grants and the
 * project row's version.
 */

export type PermissionScope = "team" | "project";

export interface PermissionDefinition {
  id: string;
  description?: string;
  scope: PermissionScope;
  containedPermissionIds: string[];
}

/** The protocol's system team permissions and the descriptions it lists them with. */
export const TEAM_SYSTEM_PERMISSIONS: Readonly<Record<string, string>> = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team",
};

export function isSystemPermissionId(id: string): boolean {
  return Object.prototype.hasOwnProperty.call(TEAM_SYSTEM_PERMISSIONS, id);
}

export class PermissionGraph {
  private readonly definitions: Record<PermissionScope, Map<string, PermissionDefinition>> = { team: new Map(), project: new Map() };
  /** The config's default sets, from the same config version as the definitions. */
  readonly defaults: ProjectConfig["rbac"]["defaultPermissions"];
  // Memoised closures: what holding one permission grants, itself included.
  private readonly closures: Record<PermissionScope, Map<string, ReadonlySet<string>>> = { team: new Map(), project: new Map() };

  constructor(config: ProjectConfig) {
    this.defaults = config.rbac.defaultPermissions;
    for (const [id, value] of Object.entries(TEAM_SYSTEM_PERMISSIONS)) {
      this.definitions.team.set(id, { id, description: value, scope: "team", containedPermissionIds: [] });
    }
    for (const [id, permission] of Object.entries(config.rbac.permissions)) {
      // An entry without a scope (possible through a raw config override) belongs to neither list, as in the protocol.
      if (permission.scope !== "team" && permission.scope !== "project") continue;
      const contained = Object.entries(permission.containedPermissionIds ?? {}).filter(([, on]) => on).map(([c]) => c).sort();
      this.definitions[permission.scope].set(id, {
        id,
        ...(permission.description !== undefined ? { description: permission.description } : {}),
        scope: permission.scope,
        containedPermissionIds: contained,
      });
    }
  }

  get(scope: PermissionScope, id: string): PermissionDefinition | undefined {
    return this.definitions[scope].get(id);
  }

  /** The scope a permission id is defined in, if any (team first: system ids are team-only). */
  scopeOf(id: string): PermissionScope | undefined {
    if (this.definitions.team.has(id)) return "team";
    if (this.definitions.project.has(id)) return "project";
    return undefined;
  }

  list(scope: PermissionScope): PermissionDefinition[] {
    return [...this.definitions[scope].values()].sort((a, b) => compareIds(a.id, b.id));
  }

  /**
   * Every permission that holding `id` grants, `id` included. Contained ids that are not (or no
   * longer) defined in the scope are skipped: a grant can only ever name a defined permission.
   */
  closure(scope: PermissionScope, id: string): ReadonlySet<string> {
    const cached = this.closures[scope].get(id);
    if (cached) return cached;
    const result = new Set<string>();
    const pending = [id];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      if (result.has(current)) continue;
      const definition = this.definitions[scope].get(current);
      if (!definition) continue;
      result.add(current);
      pending.push(...definition.containedPermissionIds);
    }
    this.closures[scope].set(id, result);
    return result;
  }

  /** The permissions granted by a set of direct grants: expanded when `recursive`, else the defined ones. */
  expand(scope: PermissionScope, directIds: Iterable<string>, recursive: boolean): Set<string> {
    const result = new Set<string>();
    for (const id of directIds) {
      if (!recursive) {
        if (this.definitions[scope].has(id)) result.add(id);
        continue;
      }
      for (const granted of this.closure(scope, id)) result.add(granted);
    }
    return result;
  }
}

/** Code-point order, as the protocol sorts ids (not locale order). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function permissionGraphOf(config: ProjectConfig): PermissionGraph {
  return new PermissionGraph(config);
}

// Per process, keyed by project id; an entry is reused only while the project row is at the same version
// (permission-definitions.ts `projectRowVersion`), so a change made by any process is seen at once.
const MAX_CACHED_GRAPHS = 500;
const graphs = new Map<string, { version: string; graph: PermissionGraph }>();

export function cachedGraph(projectId: string, version: string): PermissionGraph | undefined {
  const entry = graphs.get(projectId);
  return entry?.version === version ? entry.graph : undefined;
}

export function rememberGraph(projectId: string, version: string, configOverride: unknown): PermissionGraph {
  const graph = new PermissionGraph(renderProjectConfig(configOverride as ConfigObject));
  graphs.delete(projectId);
  if (graphs.size >= MAX_CACHED_GRAPHS) graphs.delete(graphs.keys().next().value as string);
  graphs.set(projectId, { version, graph });
  return graph;
}
