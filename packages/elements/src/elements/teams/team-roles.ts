import type { TeamMemberRoles } from "@latchkey/core";
import { msg } from "../../base/i18n.js";

/**
 * The last-admin rule of the team widgets (issue 16): a team's admin (holding every permission the project
 * gives team creators, `isAdmin` from the server) may not leave while other members remain and nobody else
 * administers it, or the team would be left without anyone able to manage it. The server does not refuse
 * (the protocol lets anyone leave): this is a guard for people, explained where the Leave button is.
 */
export function isOnlyAdminAmongOthers(roles: readonly TeamMemberRoles[], userId: string): boolean {
  const me = roles.find((member) => member.userId === userId);
  return !!me?.isAdmin && roles.length > 1 && !roles.some((member) => member.isAdmin && member.userId !== userId);
}

export const onlyAdminExplanation = (): string =>
  msg("You are this team's only admin, so you cannot leave it while other members remain. Another member must become an admin first.");
