import type { ServerTeamMember, ServerUser } from "@latchkey/core";

/** How a user is named in lists: their name, else their email, else their id. */
export const userLabel = (user: Pick<ServerUser, "id" | "displayName" | "primaryEmail">) => user.displayName || user.primaryEmail || user.id;

/** A member by their name in the team (if they set one), else as a user. */
export const memberLabel = (member: ServerTeamMember) => member.displayName || userLabel(member.user);
