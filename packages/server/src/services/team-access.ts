import { KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import { hasTeamPermission } from "./team-permission-checks.js";

/**
 * The checks every team route makes, each raising the protocol's error, in the protocol's order: the
 * user exists, then the membership, then the permission. A client asking about a team it is not in gets
 * TEAM_MEMBERSHIP_NOT_FOUND whether or not the team exists, so team ids cannot be probed.
 *
 * Each check locks what it found against deletion (`for key share`) until the caller's transaction ends,
 * so a write that depends on the check cannot meet a row deleted in between.
 */

/** Who acts: a client acts for its signed-in user (null when signed out); servers and admins for nobody. */
export interface TeamActor {
  type: "client" | "server" | "admin";
  userId: string | null;
}

export async function assertUserExists(db: Db, projectId: string, userId: string): Promise<void> {
  const user = await db.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", userId).forKeyShare().executeTakeFirst();
  if (!user) throw new KnownErrors.UserNotFound();
}

export async function assertTeamExists(db: Db, projectId: string, teamId: string): Promise<void> {
  const team = await db.selectFrom("teams").select("id").where("project_id", "=", projectId).where("id", "=", teamId).forKeyShare().executeTakeFirst();
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
}

/** USER_NOT_FOUND for an unknown user, else TEAM_MEMBERSHIP_NOT_FOUND unless the user is in the team. */
export async function assertMembership(db: Db, projectId: string, teamId: string, userId: string): Promise<void> {
  await assertUserExists(db, projectId, userId);
  const member = await db
    .selectFrom("team_members")
    .select("user_id")
    .where("project_id", "=", projectId)
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId)
    .forKeyShare()
    .executeTakeFirst();
  if (!member) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
}

/** The member holds the permission (directly or through contained ones), else TEAM_PERMISSION_REQUIRED. */
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
