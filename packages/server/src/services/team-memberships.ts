import { KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "./projects.js";
import { assertMembership, assertTeamExists, assertTeamPermission, assertUserExists, inTransaction, signedInUserId, type TeamActor } from "./team-access.js";
import { grantDefaultTeamPermissions } from "./team-permission-checks.js";
import { emitWebhookEvents, membershipEvent } from "./webhook-outbox.js";

/**
 * Team memberships (SPEC.md §7 "Teams"): a server adds users to teams; anyone leaves a team, and a member
 * holding `$remove_members` removes others. A membership carries the member's profile and team
 * permissions, so removing it removes them (foreign-key cascades), and the selected team of a user who
 * leaves it is cleared by the `users_selected_team_membership` foreign key.
 */

/**
 * Adds the user to the team with the project's member default permissions, in one transaction:
 * USER_NOT_FOUND, TEAM_NOT_FOUND, or TEAM_MEMBERSHIP_ALREADY_EXISTS (decided by the primary key, so two
 * concurrent adds make one member and one error).
 */
export async function addTeamMember(db: Db, project: ProjectRow, teamId: string, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await assertUserExists(trx, project.id, userId, "keyShare");
    await assertTeamExists(trx, project.id, teamId, "keyShare");
    const joined = await trx
      .insertInto("team_members")
      .values({ project_id: project.id, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null })
      .onConflict((oc) => oc.columns(["team_id", "user_id"]).doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!joined) throw new KnownErrors.TeamMembershipAlreadyExists();
    await grantDefaultTeamPermissions(trx, project, teamId, userId, "member");
    await emitWebhookEvents(trx, project.id, () => [membershipEvent("team_membership.created", teamId, userId)]);
  });
}

/**
 * Removes the user from the team. A client's user may always remove themself; removing someone else
 * needs `$remove_members` in that team. Errors in the protocol's order: the acting member's membership
 * and permission, then USER_NOT_FOUND / TEAM_MEMBERSHIP_NOT_FOUND for the member removed.
 */
export async function removeTeamMember(db: Db, projectId: string, actor: TeamActor, teamId: string, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (actor.type === "client") {
      const actingUserId = signedInUserId(actor);
      if (actingUserId !== userId) await assertTeamPermission(trx, projectId, teamId, actingUserId, "$remove_members");
    }
    await assertMembership(trx, projectId, teamId, userId, "update");
    await trx.deleteFrom("team_members").where("team_id", "=", teamId).where("user_id", "=", userId).execute();
    await emitWebhookEvents(trx, projectId, () => [membershipEvent("team_membership.deleted", teamId, userId)]);
  });
}
