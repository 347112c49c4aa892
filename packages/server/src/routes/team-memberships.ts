import { KnownErrors } from "@latchkey/protocol/errors";
import { successResponse, teamMemberParams, teamMembershipCreateBody, teamMembershipRead, type TeamMembershipRead } from "@latchkey/protocol/schemas";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { addTeamMember, removeTeamMember } from "../services/team-memberships.js";
import { resolveUserId, teamActor } from "./team-route-helpers.js";

const SERVER_ACCESS = ["server", "admin"] as const;
const TAGS = ["Teams"];

/**
 * Team memberships (SPEC.md §7 "Teams"): `POST /team-memberships/{team_id}/{user_id}` (servers add
 * members) and `DELETE` (anyone leaves with `me`; a member with `$remove_members` removes others). Adding a
 * member never changes their selected team.
 */
export const teamMembershipsRoutes = [
  defineRoute({
    method: "post",
    path: "/team-memberships/:team_id/:user_id",
    summary: "Add a user to a team",
    description: "The user joins with the project's member default permissions; their selected team stays as it was.",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: teamMemberParams, body: teamMembershipCreateBody },
    response: { status: 201, description: "The membership.", schema: teamMembershipRead },
    errors: [KnownErrors.UserNotFound, KnownErrors.TeamNotFound, KnownErrors.TeamMembershipAlreadyExists, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      const membership: TeamMembershipRead = { team_id: params.team_id.toLowerCase(), user_id: resolveUserId(auth, params.user_id) };
      await addTeamMember(c.get("deps").db, auth.project, membership.team_id, membership.user_id);
      return membership;
    },
  }),
  defineRoute({
    method: "delete",
    path: "/team-memberships/:team_id/:user_id",
    summary: "Remove a user from a team",
    description: "Anyone may leave a team (`user_id=me`); a client removing someone else needs `$remove_members` in the team.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamMemberParams },
    response: { description: "Removed.", schema: successResponse },
    errors: [KnownErrors.UserNotFound, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired, KnownErrors.UserAuthenticationRequired, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      await removeTeamMember(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), resolveUserId(auth, params.user_id));
      return { success: true } as const;
    },
  }),
];
