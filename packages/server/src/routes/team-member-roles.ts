import { KnownErrors } from "@latchkey/protocol/errors";
import { teamMemberRolesListResponse, teamMemberRolesQuery } from "@latchkey/protocol/schemas";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { listTeamMemberRoles } from "../services/team-member-roles.js";
import { teamActor } from "./team-route-helpers.js";

/** `GET /team-member-roles?team_id=…` (issue 16): a Latchkey extension for the team widgets' member list. */
export const teamMemberRolesRoutes = [
  defineRoute({
    method: "get",
    path: "/team-member-roles",
    summary: "List each team member's roles",
    description:
      "A Latchkey extension (not in the Stack Auth protocol). Each member's direct grants of the project's team permissions " +
      "(not the `$…` system ones) and whether they administer the team (hold every team-creator default permission). " +
      "A client's user must be a member holding `$read_members`; a server reads any team.",
    tags: ["Teams"],
    access: ANY_ACCESS,
    request: { query: teamMemberRolesQuery },
    response: { description: "The members, in order of joining.", schema: teamMemberRolesListResponse },
    errors: [KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired, KnownErrors.UserNotFound, KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.TeamNotFound],
    handler: async (c, { auth, query }) => {
      const items = await listTeamMemberRoles(c.get("deps").db, auth.project.id, teamActor(auth), query.team_id.toLowerCase());
      return { items, is_paginated: false } as const;
    },
  }),
];
