import { KnownErrors } from "@latchkey/protocol/errors";
import type { PermissionDefinitionCreateBody, PermissionDefinitionRead, PermissionDefinitionUpdateBody } from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import { sql, type Kysely, type Transaction } from "kysely";
import { overrideConfig, renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import { setOwn } from "../config/config-format.js";
import type { Database } from "../db/schema.js";
import { cachedGraph, compareIds, isSystemPermissionId, PermissionGraph, rememberGraph, type PermissionDefinition, type PermissionScope } from "./permission-graph.js";

/**
 * Permission definitions live where the protocol keeps them, in the project's config
 * (`rbac.permissions.<id>` with `scope`, `description`, `containedPermissionIds`), so that
 * `GET /internal/config` and config overrides see the same definitions as the CRUD routes. A write
 * locks the project row, rewrites `rbac.permissions` in the stored override and renames or drops the
 * grants that name the permission, all in one transaction.
 */

type Executor = Kysely<Database> | Transaction<Database>;
// Ids are plain record keys (`__proto__` is a valid permission id): records are written with `setOwn`.
type PermissionsRecord = ProjectConfig["rbac"]["permissions"];
type DefaultPermissions = ProjectConfig["rbac"]["defaultPermissions"];

// The version of a project's config: the transaction that wrote the project row's current version and
// where that version lies (xmin, ctid). Reading it is an index lookup that does not touch the (possibly
// large) override; every write makes a new row version, a rolled-back write leaves the old one, and two
// versions written by one transaction still differ by place. A graph compiled at one version is valid
// while the version stays.
export const projectRowVersion = sql<string>`projects.xmin::text || ':' || projects.ctid::text`;

/** The project's permission graph, compiled again only when the project row changed. */
export async function loadPermissionGraph(db: Executor, projectId: string): Promise<PermissionGraph> {
  const row = await db.selectFrom("projects").select(projectRowVersion.as("version")).where("id", "=", projectId).executeTakeFirst();
  return permissionGraphAt(db, projectId, row?.version ?? "");
}

/** Runs `work` in the caller's transaction, or in a new one. */
export function inTransaction<T>(db: Executor, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/**
 * The graph for a grant: the project row is share-locked until the caller's transaction ends, so a
 * definition edit (which locks the row for update) cannot delete or rename the permission between this
 * check and the grant's insert. A row lock leaves the row's version as it is.
 */
export async function lockPermissionGraph(trx: Transaction<Database>, projectId: string): Promise<PermissionGraph> {
  const row = await trx.selectFrom("projects").select(projectRowVersion.as("version")).where("id", "=", projectId).forShare().executeTakeFirst();
  return permissionGraphAt(trx, projectId, row?.version ?? "");
}

/** The graph at a version the caller already read (see `projectRowVersion`). */
export async function permissionGraphAt(db: Executor, projectId: string, version: string): Promise<PermissionGraph> {
  const cached = cachedGraph(projectId, version);
  if (cached) return cached;
  // Read again with its own version, so a graph is never remembered under another config's version.
  const full = await db
    .selectFrom("projects")
    .select(["config_override", projectRowVersion.as("version")])
    .where("id", "=", projectId)
    .executeTakeFirst();
  return rememberGraph(projectId, full?.version ?? "", full?.config_override ?? {});
}

export function renderPermissionDefinition(definition: PermissionDefinition): PermissionDefinitionRead {
  return {
    id: definition.id,
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    contained_permission_ids: [...definition.containedPermissionIds],
  };
}

/** The scope's definitions sorted by id; the team scope includes the six system permissions. */
export async function listPermissionDefinitions(db: Executor, projectId: string, scope: PermissionScope): Promise<PermissionDefinitionRead[]> {
  const graph = await loadPermissionGraph(db, projectId);
  return graph.list(scope).map(renderPermissionDefinition);
}

export async function createPermissionDefinition(db: Kysely<Database>, projectId: string, scope: PermissionScope, data: PermissionDefinitionCreateBody): Promise<PermissionDefinitionRead> {
  return editPermissions(db, projectId, async ({ permissions, graph }) => {
    // Ids are unique across both scopes: a grant names a permission by id alone.
    if (Object.prototype.hasOwnProperty.call(permissions, data.id)) throw new KnownErrors.PermissionIdAlreadyExists(data.id);
    const contained = uniqueSorted(data.contained_permission_ids ?? []);
    assertContainedExist(graph, scope, contained);
    const entry = definitionEntry(scope, data.description, contained);
    // A new permission cannot be on a cycle: nothing defined contains it... unless a raw config override
    // named it in advance, so the same check as on update applies.
    const next = { ...permissions };
    setOwn(next, data.id, entry);
    assertNoCycle(next, scope, data.id);
    return { permissions: next, result: { id: data.id, ...descriptionOf(entry), contained_permission_ids: contained } };
  });
}

export async function updatePermissionDefinition(
  db: Kysely<Database>,
  projectId: string,
  scope: PermissionScope,
  oldId: string,
  data: PermissionDefinitionUpdateBody,
): Promise<PermissionDefinitionRead> {
  return editPermissions(db, projectId, async ({ trx, permissions, defaults, graph }) => {
    const existing = ownEntry(permissions, oldId);
    if (!existing || existing.scope !== scope) throw new KnownErrors.PermissionNotFound(oldId);
    const newId = data.id ?? oldId;
    if (newId !== oldId && Object.prototype.hasOwnProperty.call(permissions, newId)) throw new KnownErrors.PermissionIdAlreadyExists(newId);
    const contained = data.contained_permission_ids !== undefined
      ? uniqueSorted(data.contained_permission_ids)
      : Object.keys(existing.containedPermissionIds ?? {}).sort(compareIds);
    if (data.contained_permission_ids !== undefined) assertContainedExist(graph, scope, contained);
    const entry = definitionEntry(scope, data.description ?? existing.description, contained.map((id) => (id === oldId ? newId : id)));
    const next: PermissionsRecord = {};
    for (const [id, permission] of Object.entries(permissions)) {
      if (id === oldId) continue;
      setOwn(next, id, newId === oldId ? permission : { ...permission, containedPermissionIds: renameKey(permission.containedPermissionIds ?? {}, oldId, newId) });
    }
    setOwn(next, newId, entry);
    assertNoCycle(next, scope, newId);
    if (newId !== oldId) await renameGrants(trx, projectId, scope, oldId, newId);
    return {
      permissions: next,
      defaults: newId === oldId ? undefined : mapDefaults(defaults, (set) => renameKey(set, oldId, newId)),
      result: { id: newId, ...descriptionOf(entry), contained_permission_ids: Object.keys(entry.containedPermissionIds).sort(compareIds) },
    };
  });
}

export async function deletePermissionDefinition(db: Kysely<Database>, projectId: string, scope: PermissionScope, id: string): Promise<void> {
  await editPermissions(db, projectId, async ({ trx, permissions, defaults }) => {
    const existing = ownEntry(permissions, id);
    if (!existing || existing.scope !== scope) throw new KnownErrors.PermissionNotFound(id);
    const next: PermissionsRecord = {};
    for (const [other, permission] of Object.entries(permissions)) {
      if (other === id) continue;
      setOwn(next, other, { ...permission, containedPermissionIds: withoutKey(permission.containedPermissionIds ?? {}, id) });
    }
    if (scope === "team") {
      await trx.deleteFrom("team_member_permissions").where("project_id", "=", projectId).where("permission_id", "=", id).execute();
    } else {
      await trx.deleteFrom("project_user_permissions").where("project_id", "=", projectId).where("permission_id", "=", id).execute();
    }
    return { permissions: next, defaults: mapDefaults(defaults, (set) => withoutKey(set, id)), result: undefined };
  });
}

interface EditState {
  trx: Transaction<Database>;
  permissions: PermissionsRecord;
  defaults: DefaultPermissions;
  graph: PermissionGraph;
}
interface EditOutcome<T> {
  permissions: PermissionsRecord;
  /** Only when the default sets change (a rename or delete); they are rewritten whole. */
  defaults?: DefaultPermissions;
  result: T;
}

/** Runs one definition edit against the locked, current config and stores its outcome. */
async function editPermissions<T>(db: Kysely<Database>, projectId: string, edit: (state: EditState) => Promise<EditOutcome<T>>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    // No key update: inserts that merely reference the project (sessions, users) need not wait for an edit.
    const row = await trx.selectFrom("projects").select("config_override").where("id", "=", projectId).forNoKeyUpdate().executeTakeFirst();
    if (!row) throw new KnownErrors.ProjectNotFound(projectId);
    const stored = row.config_override as ConfigObject;
    const config = renderProjectConfig(stored);
    const outcome = await edit({ trx, permissions: config.rbac.permissions, defaults: config.rbac.defaultPermissions, graph: new PermissionGraph(config) });
    const change: ConfigObject = { "rbac.permissions": outcome.permissions as unknown as ConfigObject };
    if (outcome.defaults) change["rbac.defaultPermissions"] = outcome.defaults as unknown as ConfigObject;
    await trx.updateTable("projects").set({ config_override: JSON.stringify(overrideConfig(stored, change)) }).where("id", "=", projectId).execute();
    return outcome.result;
  });
}

function definitionEntry(scope: PermissionScope, description: string | undefined, contained: string[]) {
  // As the protocol does, a system permission's id never gets a description here (they are never stored).
  return {
    ...(description !== undefined && description !== "" ? { description } : {}),
    scope,
    containedPermissionIds: Object.fromEntries(contained.map((id) => [id, true as const])),
  };
}

function descriptionOf(entry: { description?: string }): { description?: string } {
  return entry.description !== undefined ? { description: entry.description } : {};
}

function ownEntry(permissions: PermissionsRecord, id: string): PermissionsRecord[string] | undefined {
  return Object.prototype.hasOwnProperty.call(permissions, id) ? permissions[id] : undefined;
}

function assertContainedExist(graph: PermissionGraph, scope: PermissionScope, contained: string[]): void {
  const missing = contained.find((id) => !graph.get(scope, id));
  if (missing !== undefined) throw new KnownErrors.ContainedPermissionNotFound(missing);
}

/**
 * Refuses an edit that would put `changedId` on a cycle. Only its own contained ids changed, so any new
 * cycle passes through it: it is enough to look for `changedId` among what it reaches.
 */
function assertNoCycle(permissions: PermissionsRecord, scope: PermissionScope, changedId: string): void {
  const seen = new Set<string>();
  const pending = Object.keys(ownEntry(permissions, changedId)?.containedPermissionIds ?? {});
  while (pending.length > 0) {
    const id = pending.pop() as string;
    if (id === changedId) {
      throw new HTTPException(400, { message: `Permission "${changedId}" would contain itself through its contained permissions; permission graphs cannot have cycles.` });
    }
    if (seen.has(id) || isSystemPermissionId(id)) continue;
    seen.add(id);
    const entry = ownEntry(permissions, id);
    if (entry?.scope === scope) pending.push(...Object.keys(entry.containedPermissionIds ?? {}));
  }
}

async function renameGrants(trx: Transaction<Database>, projectId: string, scope: PermissionScope, oldId: string, newId: string): Promise<void> {
  const table = scope === "team" ? "team_member_permissions" : "project_user_permissions";
  await trx.updateTable(table).set({ permission_id: newId }).where("project_id", "=", projectId).where("permission_id", "=", oldId).execute();
}

function mapDefaults(defaults: DefaultPermissions, map: (set: Record<string, true>) => Record<string, true>): DefaultPermissions {
  return { teamCreator: map(defaults.teamCreator), teamMember: map(defaults.teamMember), signUp: map(defaults.signUp) };
}

function renameKey(set: Record<string, true>, from: string, to: string): Record<string, true> {
  return Object.fromEntries(Object.entries(set).map(([key, value]) => [key === from ? to : key, value]));
}

function withoutKey(set: Record<string, true>, key: string): Record<string, true> {
  return Object.fromEntries(Object.entries(set).filter(([k]) => k !== key));
}

function uniqueSorted(ids: string[]): string[] {
  return [...new Set(ids)].sort(compareIds);
}
