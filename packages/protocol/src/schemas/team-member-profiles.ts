import { z } from "zod";
import { unpaginatedList } from "./list-response.js";
import { teamMemberProfileClientRead } from "./teams.js";
import { userServerRead } from "./users.js";

/**
 * The read shapes of team member profiles (`/team-member-profiles`, SPEC.md §7 "Teams") that need the user's
 * shape: a server reads the whole server user along with the profile. (Kept apart from teams.ts, which
 * users.ts imports for a user's selected team.)
 */

/** A member's profile as a server reads it: the client shape plus the user. */
export const teamMemberProfileServerRead = teamMemberProfileClientRead.extend({ user: userServerRead });
export type TeamMemberProfileServerRead = z.infer<typeof teamMemberProfileServerRead>;

/** A profile as either caller reads it. */
export const teamMemberProfileRead = z.union([teamMemberProfileClientRead, teamMemberProfileServerRead]);

/** `GET /team-member-profiles` */
export const teamMemberProfileListResponse = unpaginatedList(teamMemberProfileRead);
