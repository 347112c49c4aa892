import { Hono } from "hono";
import { teamMemberParams, teamMembershipCreateBody, type TeamMembershipRead } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { addTeamMember, removeTeamMember } from "../services/team-memberships.js";
import { resolveUserId, teamActor } from "./team-route-helpers.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const SERVER_ACCESS = ["server", "admin"] as const;

/**
 * Team memberships (SPEC.md §7 "Teams"): `POST /team-memberships/{team_id}/{user_id}` (servers add
 * members) and `DELETE` (anyone leaves with `me`; a member with `$remove_members` removes others).
 */
export function teamMembershipsRoutes() {
  return new Hono<AppEnv>()
    .post("/team-memberships/:team_id/:user_id", async (c) => {
      const auth = requireAccess(c, SERVER_ACCESS);
      const { params } = validate(c, { params: teamMemberParams, body: teamMembershipCreateBody });
      const membership: TeamMembershipRead = { team_id: params.team_id.toLowerCase(), user_id: resolveUserId(auth, params.user_id) };
      await addTeamMember(c.get("deps").db, auth.project, membership.team_id, membership.user_id);
      return c.json(membership, 201);
    })
    .delete("/team-memberships/:team_id/:user_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: teamMemberParams });
      await removeTeamMember(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), resolveUserId(auth, params.user_id));
      return c.json({ success: true }, 200);
    });
}
