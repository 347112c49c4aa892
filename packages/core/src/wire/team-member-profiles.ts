import type { TeamMemberProfileClientRead, TeamMemberRolesRead } from "@latchkey/protocol/schemas";

/** A member of a team as other members see them: their name and image in that team. */
export interface TeamMemberProfile {
  userId: string;
  teamId: string;
  displayName: string | null;
  profileImageUrl: string | null;
}

/** What a member may change about their own profile in a team. */
export interface TeamMemberProfileUpdate {
  displayName?: string | null;
  profileImageUrl?: string | null;
}

export function teamMemberProfileFromWire(wire: TeamMemberProfileClientRead): TeamMemberProfile {
  return { userId: wire.user_id, teamId: wire.team_id, displayName: wire.display_name, profileImageUrl: wire.profile_image_url };
}

export function teamMemberProfileUpdateToWire(update: TeamMemberProfileUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (update.displayName !== undefined) body.display_name = update.displayName;
  if (update.profileImageUrl !== undefined) body.profile_image_url = update.profileImageUrl;
  return body;
}

/**
 * A member's roles in a team (GET /team-member-roles, a Latchkey extension): their direct grants of the
 * project's team permissions, and whether they administer the team (hold every team-creator default).
 */
export interface TeamMemberRoles {
  userId: string;
  permissionIds: string[];
  isAdmin: boolean;
}

export function teamMemberRolesFromWire(wire: TeamMemberRolesRead): TeamMemberRoles {
  return { userId: wire.user_id, permissionIds: wire.permission_ids, isAdmin: wire.is_admin };
}
