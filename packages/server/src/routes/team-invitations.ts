import { Hono } from "hono";
import { CODE_VALID_RESPONSE, teamInvitationSendBody, teamInvitationTeamQuery, verificationCodeBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import {
  acceptTeamInvitation,
  checkTeamInvitation,
  listTeamInvitations,
  revokeTeamInvitation,
  sendTeamInvitation,
  teamInvitationDetails,
} from "../services/team-invitations.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;

/**
 * `/team-invitations/*` (SPEC.md §7 "Teams"): sending (a member with `$invite_members`, or a server),
 * listing and revoking a team's pending invitations, and the invited user's check, details and accept.
 */
export function teamInvitationsRoutes() {
  return new Hono<AppEnv>()
    .post("/team-invitations/send-code", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: teamInvitationSendBody });
      const { id } = await sendTeamInvitation(c.get("deps"), auth, { teamId: body.team_id, email: body.email, callbackUrl: body.callback_url });
      return c.json({ success: true, id }, 200);
    })
    .post("/team-invitations/accept/check-code", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: verificationCodeBody });
      await checkTeamInvitation(c.get("deps").db, auth.project.id, body.code);
      return c.json(CODE_VALID_RESPONSE, 200);
    })
    .post("/team-invitations/accept/details", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: verificationCodeBody });
      return c.json(await teamInvitationDetails(c.get("deps").db, auth, body.code), 200);
    })
    .post("/team-invitations/accept", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: verificationCodeBody });
      await acceptTeamInvitation(c.get("deps").db, auth, body.code);
      return c.json({}, 200);
    })
    .get("/team-invitations", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: teamInvitationTeamQuery });
      const items = await listTeamInvitations(c.get("deps").db, auth, query.team_id);
      return c.json({ items, is_paginated: false }, 200);
    })
    .delete("/team-invitations/:invitation_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: teamInvitationTeamQuery });
      await revokeTeamInvitation(c.get("deps").db, auth, { teamId: query.team_id, invitationId: c.req.param("invitation_id") });
      return c.json({ success: true }, 200);
    });
}
