import { KnownErrors } from "@latchkey/protocol/errors";
import type { SelectQueryBuilder } from "kysely";
import type { Db } from "../db/connect.js";
import type { Database } from "../db/schema.js";
import { hasTeamPermission } from "./team-permission-checks.js";

/**
 * The checks every team route makes, each raising the protocol's error, in the protocol's order: the
 * user exists, then the membership, then the permission. A client asking about a team it is not in gets
 * TEAM_MEMBERSHIP_NOT_FOUND whether or not the team exists, so team ids cannot be probed.
 */

/** Who acts: a client acts for its signed-in user (null when signed out); servers and admins for nobody. */
export interface TeamActor {
  type: "client" | "server" | "admin";
  userId: string | null;
}

/**
 * How a check inside a writing transaction holds the row it found until commit. `keyShare` keeps the row
 * from being deleted (and lets writes that refer to it, or change its other columns, go ahead), so a write
 * never meets a row deleted since its check. `update` is for the row the transaction will delete itself:
 * two such transactions then queue instead of both holding a share lock and deadlocking on the delete.
 * Reads and the acting member's own checks take no lock.
 */
export type RowLock = "none" | "keyShare" | "update";

function locked<O>(query: SelectQueryBuilder<Database, any, O>, lock: RowLock): SelectQueryBuilder<Database, any, O> {
  if (lock === "keyShare") return query.forKeyShare();
  if (lock === "update") return query.forUpdate();
  return query;
}

export async function assertUserExists(db: Db, projectId: string, userId: string, lock: RowLock = "none"): Promise<void> {
  const user = await locked(db.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", userId), lock).executeTakeFirst();
  if (!user) throw new KnownErrors.UserNotFound();
}

export async function assertTeamExists(db: Db, projectId: string, teamId: string, lock: RowLock = "none"): Promise<void> {
  const team = await locked(db.selectFrom("teams").select("id").where("project_id", "=", projectId).where("id", "=", teamId), lock).executeTakeFirst();
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
}

/**
 * USER_NOT_FOUND for an unknown user, else TEAM_MEMBERSHIP_NOT_FOUND unless the user is in the team.
 * The lock applies to the membership (the user row is kept only from deletion).
 */
export async function assertMembership(db: Db, projectId: string, teamId: string, userId: string, lock: RowLock = "none"): Promise<void> {
  await assertUserExists(db, projectId, userId, lock === "none" ? "none" : "keyShare");
  const member = await locked(
    db.selectFrom("team_members").select("user_id").where("project_id", "=", projectId).where("team_id", "=", teamId).where("user_id", "=", userId),
    lock,
  ).executeTakeFirst();
  if (!member) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
}

/**
 * The acting member holds the permission (directly or through contained ones), else the membership error
 * or TEAM_PERMISSION_REQUIRED. No lock: an action allowed a moment before the member leaves is allowed.
 */
export async function assertTeamPermission(db: Db, projectId: string, teamId: string, userId: string, permissionId: string): Promise<void> {
  await assertMembership(db, projectId, teamId, userId);
  if (!(await hasTeamPermission(db, projectId, teamId, userId, permissionId))) {
    throw new KnownErrors.TeamPermissionRequired(teamId, userId, permissionId);
  }
}

/** The client's signed-in user, whom a team route acts for; USER_AUTHENTICATION_REQUIRED when signed out. */
export function signedInUserId(actor: TeamActor): string {
  if (!actor.userId) throw new KnownErrors.UserAuthenticationRequired();
  return actor.userId;
}

/** Runs `work` in the caller's transaction, or in a new one. */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
