import { KnownErrors } from "@latchkey/protocol/errors";
import type { TeamMemberProfileClientRead } from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import type { Selectable, Updateable } from "kysely";
import type { Db } from "../db/connect.js";
import type { TeamMembersTable } from "../db/schema.js";
import { assertMembership, assertTeamExists, assertTeamPermission, assertUserExists, inTransaction, type TeamActor } from "./team-access.js";
import { saveProfileImage, type ProfileImageChange } from "./profile-images.js";
import { completeUserRecords, renderServerUser } from "./user-read.js";
import type { RestrictionPolicy } from "./user-restrictions.js";
import type { UserRow } from "./user-rows.js";

/**
 * Team member profiles (SPEC.md §7 "Teams"): each member's display name and image in one team, stored on
 * the membership, separate from the user's own. A member reads their own profile; reading others' needs
 * `$read_members` in the team. Only the member writes their profile (servers write any).
 */

type MemberRow = Selectable<TeamMembersTable>;

export interface MemberProfile {
  member: MemberRow;
  user: UserRow;
}

const READ_MEMBERS = "$read_members";

/**
 * The client shape. As in the protocol, a member who set no name or image in the team shows the user's
 * own, so a team lists everyone by name without each member writing a profile first.
 */
export function renderClientProfile({ member, user }: MemberProfile): TeamMemberProfileClientRead {
  return {
    team_id: member.team_id,
    user_id: member.user_id,
    display_name: member.display_name ?? user.display_name,
    profile_image_url: member.profile_image_url ?? user.profile_image_url,
  };
}

/** The server shapes (client shape plus the whole server user), in one batch of user reads. */
export async function renderServerProfiles(db: Db, profiles: readonly MemberProfile[], policy: RestrictionPolicy) {
  const records = await completeUserRecords(db, profiles.map((p) => p.user));
  return profiles.map((profile, i) => ({ ...renderClientProfile(profile), user: renderServerUser(records[i]!, policy) }));
}

async function loadProfiles(db: Db, projectId: string, filter: { teamId?: string; userId?: string }): Promise<MemberProfile[]> {
  let query = db
    .selectFrom("team_members")
    .innerJoin("users", "users.id", "team_members.user_id")
    .selectAll("users")
    .select([
      "team_members.team_id as member_team_id",
      "team_members.display_name as member_display_name",
      "team_members.profile_image_url as member_profile_image_url",
      "team_members.created_at as member_created_at",
    ])
    .where("team_members.project_id", "=", projectId);
  if (filter.teamId) query = query.where("team_members.team_id", "=", filter.teamId);
  if (filter.userId) query = query.where("team_members.user_id", "=", filter.userId);
  const rows = await query.orderBy("team_members.created_at").orderBy("team_members.user_id").execute();
  return rows.map(({ member_team_id, member_display_name, member_profile_image_url, member_created_at, ...user }) => ({
    member: {
      project_id: projectId,
      team_id: member_team_id,
      user_id: user.id,
      display_name: member_display_name,
      profile_image_url: member_profile_image_url,
      created_at: member_created_at,
    },
    user,
  }));
}

/**
 * `GET /team-member-profiles`: a client names a team it is in and sees its own profile, or every
 * member's with `$read_members`; a server filters by team and/or user (each must exist).
 */
export async function listMemberProfiles(db: Db, projectId: string, actor: TeamActor, filter: { teamId?: string; userId?: string }): Promise<MemberProfile[]> {
  if (actor.type === "client") {
    const actingUserId = actor.userId;
    if (!actingUserId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (!filter.teamId) throw new HTTPException(400, { message: "team_id is required for access type client" });
    await assertMembership(db, projectId, filter.teamId, actingUserId);
    if (filter.userId !== actingUserId) await assertTeamPermission(db, projectId, filter.teamId, actingUserId, READ_MEMBERS);
  } else {
    if (filter.teamId) await assertTeamExists(db, projectId, filter.teamId);
    if (filter.userId) await assertUserExists(db, projectId, filter.userId);
  }
  return loadProfiles(db, projectId, filter);
}

/** `GET /team-member-profiles/{team}/{user}`: someone else's profile needs `$read_members` (client). */
export async function readMemberProfile(db: Db, projectId: string, actor: TeamActor, teamId: string, userId: string): Promise<MemberProfile> {
  if (actor.type === "client") {
    if (!actor.userId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (actor.userId !== userId) await assertTeamPermission(db, projectId, teamId, actor.userId, READ_MEMBERS);
  }
  await assertMembership(db, projectId, teamId, userId);
  const [profile] = await loadProfiles(db, projectId, { teamId, userId });
  if (!profile) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  return profile;
}

/** `PATCH /team-member-profiles/{team}/{user}`: a client changes only its own user's profile. */
export async function updateMemberProfile(
  db: Db,
  projectId: string,
  actor: TeamActor,
  teamId: string,
  userId: string,
  update: { displayName?: string; profileImage?: ProfileImageChange },
): Promise<MemberProfile> {
  return inTransaction(db, async (trx) => {
    if (actor.type === "client") {
      if (!actor.userId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
      if (actor.userId !== userId) throw new HTTPException(403, { message: "Cannot update another user's profile" });
    }
    await assertMembership(trx, projectId, teamId, userId, "keyShare");
    const columns: Updateable<TeamMembersTable> = {};
    if (update.displayName !== undefined) columns.display_name = update.displayName;
    if (update.profileImage) columns.profile_image_url = await saveProfileImage(trx, projectId, { teamId, userId }, update.profileImage);
    if (Object.keys(columns).length > 0) await trx.updateTable("team_members").set(columns).where("team_id", "=", teamId).where("user_id", "=", userId).execute();
    const [profile] = await loadProfiles(trx, projectId, { teamId, userId });
    return profile!;
  });
}
