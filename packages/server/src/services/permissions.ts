import { KnownErrors } from "@latchkey/protocol/errors";
import type { ProjectPermissionRead, TeamPermissionRead } from "@latchkey/protocol/schemas";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.js";
import { inTransaction, loadPermissionGraph, lockPermissionGraph } from "./permission-definitions.js";
import { compareIds, type PermissionGraph, type PermissionScope } from "./permission-graph.js";
import { emitWebhookEvents } from "./webhook-outbox.js";

/**
 * Who holds which permission. Only direct grants are stored; what a grant implies through contained
 * permissions is computed from the project's graph when listing (`recursive`), so changing a
 * definition changes every holder at once. Direct grants and revocations are webhook events
 * (services/webhook-outbox.ts), written in the same transaction.
 */

type Executor = Kysely<Database> | Transaction<Database>;

/** The grantable definition, or the protocol's error for an id undefined in this scope. */
function assertGrantable(graph: PermissionGraph, scope: PermissionScope, permissionId: string): void {
  if (graph.get(scope, permissionId)) return;
  const actual = graph.scopeOf(permissionId);
  if (actual) throw new KnownErrors.PermissionScopeMismatch(permissionId, scope, actual);
  throw new KnownErrors.PermissionNotFound(permissionId);
}

async function assertUserExists(db: Executor, projectId: string, userId: string): Promise<void> {
  const user = await db.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", userId).executeTakeFirst();
  if (!user) throw new KnownErrors.UserIdDoesNotExist(userId);
}

async function assertMembership(db: Executor, projectId: string, teamId: string, userId: string): Promise<void> {
  await assertUserExists(db, projectId, userId);
  const member = await db
    .selectFrom("team_members")
    .select("user_id")
    .where("project_id", "=", projectId)
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!member) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
}

/** Grants a team permission to a member; granting one already held is a no-op that answers the same. */
export async function grantTeamPermission(db: Executor, projectId: string, teamId: string, userId: string, permissionId: string): Promise<TeamPermissionRead> {
  return inTransaction(db, async (trx) => {
    await assertMembership(trx, projectId, teamId, userId);
    assertGrantable(await lockPermissionGraph(trx, projectId), "team", permissionId);
    // The membership foreign key decides a race with the member leaving: the insert then fails, and is
    // reported as the membership being gone.
    let granted: unknown[];
    try {
      granted = await trx
        .insertInto("team_member_permissions")
        .values({ project_id: projectId, team_id: teamId, user_id: userId, permission_id: permissionId })
        .onConflict((oc) => oc.doNothing())
        .returning("permission_id")
        .execute();
    } catch (error) {
      if ((error as { code?: string }).code === "23503") throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
      throw error;
    }
    const read = { id: permissionId, user_id: userId, team_id: teamId };
    // A grant already held changes nothing, and so announces nothing.
    if (granted.length > 0) await emitWebhookEvents(trx, projectId, () => [{ type: "team_permission.created", data: read }]);
    return read;
  });
}

/** Revokes a directly held team permission; one held only through another permission cannot be revoked alone. */
export async function revokeTeamPermission(db: Executor, projectId: string, teamId: string, userId: string, permissionId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await assertMembership(trx, projectId, teamId, userId);
    const deleted = await trx
      .deleteFrom("team_member_permissions")
      .where("project_id", "=", projectId)
      .where("team_id", "=", teamId)
      .where("user_id", "=", userId)
      .where("permission_id", "=", permissionId)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw new KnownErrors.TeamPermissionNotFound(teamId, userId, permissionId);
    await emitWebhookEvents(trx, projectId, () => [{ type: "team_permission.deleted", data: { id: permissionId, user_id: userId, team_id: teamId } }]);
  });
}

export async function grantProjectPermission(db: Executor, projectId: string, userId: string, permissionId: string): Promise<ProjectPermissionRead> {
  return inTransaction(db, async (trx) => {
    await assertUserExists(trx, projectId, userId);
    assertGrantable(await lockPermissionGraph(trx, projectId), "project", permissionId);
    let granted: unknown[];
    try {
      granted = await trx
        .insertInto("project_user_permissions")
        .values({ project_id: projectId, user_id: userId, permission_id: permissionId })
        .onConflict((oc) => oc.doNothing())
        .returning("permission_id")
        .execute();
    } catch (error) {
      if ((error as { code?: string }).code === "23503") throw new KnownErrors.UserIdDoesNotExist(userId);
      throw error;
    }
    const read = { id: permissionId, user_id: userId };
    if (granted.length > 0) await emitWebhookEvents(trx, projectId, () => [{ type: "project_permission.created", data: read }]);
    return read;
  });
}

export async function revokeProjectPermission(db: Executor, projectId: string, userId: string, permissionId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await assertUserExists(trx, projectId, userId);
    const deleted = await trx
      .deleteFrom("project_user_permissions")
      .where("project_id", "=", projectId)
      .where("user_id", "=", userId)
      .where("permission_id", "=", permissionId)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw new KnownErrors.PermissionNotFound(permissionId);
    await emitWebhookEvents(trx, projectId, () => [{ type: "project_permission.deleted", data: { id: permissionId, user_id: userId } }]);
  });
}

export interface TeamPermissionFilter {
  teamId?: string;
  userId?: string;
  permissionId?: string;
  recursive: boolean;
}

/** Each (team, member)'s permissions, expanded when recursive, sorted by team, user and id. */
export async function listTeamPermissions(db: Executor, projectId: string, filter: TeamPermissionFilter): Promise<TeamPermissionRead[]> {
  let query = db.selectFrom("team_member_permissions").select(["team_id", "user_id", "permission_id"]).where("project_id", "=", projectId);
  if (filter.teamId) query = query.where("team_id", "=", filter.teamId);
  if (filter.userId) query = query.where("user_id", "=", filter.userId);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const graph = await loadPermissionGraph(db, projectId);
  const byHolder = new Map<string, { team_id: string; user_id: string; direct: string[] }>();
  for (const row of rows) {
    const key = `${row.team_id}:${row.user_id}`;
    const holder = byHolder.get(key) ?? { team_id: row.team_id, user_id: row.user_id, direct: [] };
    holder.direct.push(row.permission_id);
    byHolder.set(key, holder);
  }
  const items: TeamPermissionRead[] = [];
  for (const holder of byHolder.values()) {
    for (const id of graph.expand("team", holder.direct, filter.recursive)) {
      if (filter.permissionId === undefined || id === filter.permissionId) items.push({ id, user_id: holder.user_id, team_id: holder.team_id });
    }
  }
  return items.sort((a, b) => compareIds(a.team_id, b.team_id) || compareIds(a.user_id, b.user_id) || compareIds(a.id, b.id));
}

export interface ProjectPermissionFilter {
  userId?: string;
  permissionId?: string;
  recursive: boolean;
}

export async function listProjectPermissions(db: Executor, projectId: string, filter: ProjectPermissionFilter): Promise<ProjectPermissionRead[]> {
  let query = db.selectFrom("project_user_permissions").select(["user_id", "permission_id"]).where("project_id", "=", projectId);
  if (filter.userId) query = query.where("user_id", "=", filter.userId);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const graph = await loadPermissionGraph(db, projectId);
  const byUser = new Map<string, string[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.permission_id]);
  const items: ProjectPermissionRead[] = [];
  for (const [userId, direct] of byUser) {
    for (const id of graph.expand("project", direct, filter.recursive)) {
      if (filter.permissionId === undefined || id === filter.permissionId) items.push({ id, user_id: userId });
    }
  }
  return items.sort((a, b) => compareIds(a.user_id, b.user_id) || compareIds(a.id, b.id));
}

/**
 * Grants a new user the project's sign-up default permissions (those defined in the project scope).
 * `defaults` is the set from the caller's view of the config; when it is empty nothing is locked or
 * written, otherwise the set is read again from the locked project row.
 */
export async function grantSignUpPermissions(db: Executor, projectId: string, userId: string, defaults: Record<string, true>): Promise<void> {
  if (Object.keys(defaults).length === 0) return;
  await inTransaction(db, async (trx) => {
    const graph = await lockPermissionGraph(trx, projectId);
    const ids = Object.entries(graph.defaults.signUp).filter(([id, on]) => on && graph.get("project", id)).map(([id]) => id);
    if (ids.length === 0) return;
    await trx
      .insertInto("project_user_permissions")
      .values(ids.map((permission_id) => ({ project_id: projectId, user_id: userId, permission_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
}
