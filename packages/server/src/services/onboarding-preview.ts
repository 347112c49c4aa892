import type { UserRestrictedReason } from "@latchkey/protocol/schemas";
import type { Db } from "../db/connect.js";
import { isRestrictedSql, restrictedReasonOf, type RestrictionPolicy } from "./user-restrictions.js";

export interface AffectedUser {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  restricted_reason: UserRestrictedReason;
}

/**
 * The users an onboarding change would hold back: signed up (not anonymous), allowed in under the project's policy
 * now and restricted under `next` — the first `limit` in sign-up order, each with the reason it would give, and
 * how many there are in all. A change that restricts no one more (or lifts a requirement) affects no one.
 */
export async function usersAffectedByOnboarding(
  db: Db,
  projectId: string,
  current: RestrictionPolicy,
  next: RestrictionPolicy,
  limit: number,
): Promise<{ users: AffectedUser[]; total: number }> {
  const affected = db
    .selectFrom("users")
    .where("users.project_id", "=", projectId)
    .where("users.is_anonymous", "=", false)
    .where((eb) => eb.not(isRestrictedSql(current)))
    .where(isRestrictedSql(next));
  const [{ total }, rows] = await Promise.all([
    affected.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow(),
    affected
      .leftJoin("contact_channels as primary_email", (join) =>
        join.onRef("primary_email.user_id", "=", "users.id").on("primary_email.type", "=", "email").on("primary_email.is_primary", "=", true),
      )
      .select(["users.id", "users.display_name", "users.is_anonymous", "users.restricted_by_admin", "primary_email.value as email", "primary_email.is_verified"])
      .orderBy("users.created_at")
      .orderBy("users.id")
      .limit(limit)
      .execute(),
  ]);
  const users = rows.map((row) => ({
    id: row.id,
    display_name: row.display_name,
    primary_email: row.email,
    restricted_reason: restrictedReasonOf(row, row.is_verified === null ? null : { is_verified: row.is_verified }, next)!,
  }));
  return { users, total: Number(total) };
}
