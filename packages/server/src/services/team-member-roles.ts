import { KnownErrors } from "@latchkey/protocol/errors";
import type { TeamMemberRolesRead } from "@latchkey/protocol/schemas";
import type { Db } from "../db/connect.js";
import { loadPermissionGraph } from "./permission-definitions.js";
import { compareIds, isSystemPermissionId, type PermissionGraph } from "./permission-graph.js";
import { assertTeamExists, assertTeamPermission, type TeamActor } from "./team-access.js";

/**
 * Each member's roles in a team (issue 16, a Latchkey extension: the protocol lets a client read only its own
 * permissions). A role is a direct grant of one of the project's own team permissions; the `$…` system
 * permissions are what roles contain, not roles. A client sees the roles of a team it is in when it may see
 * the members (`$read_members`, the rule of the member profiles list); a server sees any team's.
 */

const READ_MEMBERS = "$read_members";

export async function listTeamMemberRoles(db: Db, projectId: string, actor: TeamActor, teamId: string): Promise<TeamMemberRolesRead[]> {
  if (actor.type === "client") {
    if (!actor.userId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    // The membership first (TEAM_MEMBERSHIP_NOT_FOUND), then the permission, as the profiles list checks them.
    await assertTeamPermission(db, projectId, teamId, actor.userId, READ_MEMBERS);
  } else {
    await assertTeamExists(db, projectId, teamId);
  }
  const [members, grants, graph] = await Promise.all([
    db.selectFrom("team_members").select("user_id").where("project_id", "=", projectId).where("team_id", "=", teamId).orderBy("created_at").orderBy("user_id").execute(),
    db.selectFrom("team_member_permissions").select(["user_id", "permission_id"]).where("project_id", "=", projectId).where("team_id", "=", teamId).execute(),
    loadPermissionGraph(db, projectId),
  ]);
  const direct = new Map<string, string[]>();
  for (const grant of grants) direct.set(grant.user_id, [...(direct.get(grant.user_id) ?? []), grant.permission_id]);
  const adminSet = adminPermissionIds(graph);
  return members.map(({ user_id }) => {
    const held = direct.get(user_id) ?? [];
    const granted = graph.expand("team", held, true);
    return {
      user_id,
      permission_ids: held.filter((id) => !isSystemPermissionId(id) && graph.get("team", id)).sort(compareIds),
      is_admin: adminSet.length > 0 && adminSet.every((id) => granted.has(id)),
    };
  });
}

/**
 * What makes a team's admin: every (defined) permission the project grants a team's creator. A project whose
 * creators get nothing has no admins, and so no last admin to keep.
 */
export function adminPermissionIds(graph: PermissionGraph): string[] {
  return Object.entries(graph.defaults.teamCreator)
    .filter(([id, on]) => on && graph.get("team", id))
    .map(([id]) => id);
}
