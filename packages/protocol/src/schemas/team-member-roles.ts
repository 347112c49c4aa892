import { z } from "zod";
import { uuid } from "./ids.js";
import { unpaginatedList } from "./list-response.js";

/**
 * `GET /team-member-roles?team_id=…`, a Latchkey extension (issue 16; the Stack Auth protocol lets a client
 * read only its own permissions): each member's roles, i.e. their direct grants of the project's own team
 * permissions (not the `$…` system ones), and whether they administer the team.
 */

export const teamMemberRolesQuery = z.strictObject({ team_id: uuid });

export const teamMemberRolesRead = z.strictObject({
  user_id: z.string(),
  permission_ids: z.array(z.string()).meta({ description: "Direct grants of the project's team permissions, sorted by id." }),
  is_admin: z.boolean().meta({
    description: "Holds (directly or by containment) every permission of the project's team-creator defaults; false for all when those are empty.",
  }),
});
export type TeamMemberRolesRead = z.infer<typeof teamMemberRolesRead>;

/** In order of joining, as the member profiles are listed. */
export const teamMemberRolesListResponse = unpaginatedList(teamMemberRolesRead);
