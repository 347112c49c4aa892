import { KnownErrors } from "@latchkey/protocol/errors";
import {
  CODE_VALID_RESPONSE,
  successResponse,
  teamInvitationAcceptResponse,
  teamInvitationCheckResponse,
  teamInvitationDetails,
  teamInvitationIdParams,
  teamInvitationAcceptByIdQuery,
  teamInvitationListQuery,
  teamInvitationListResponse,
  teamInvitationSendBody,
  teamInvitationSentResponse,
  teamInvitationTeamQuery,
  verificationCodeBody,
} from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import type { RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import {
  acceptReceivedTeamInvitation,
  acceptTeamInvitation,
  checkTeamInvitation,
  listReceivedTeamInvitations,
  listTeamInvitations,
  revokeTeamInvitation,
  sendTeamInvitation,
  teamInvitationDetails as readInvitationDetails,
} from "../services/team-invitations.js";

const TAGS = ["Teams"];
const INVITER_ERRORS = [KnownErrors.TeamNotFound, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired, KnownErrors.UserAuthenticationRequired];
const CODE_ERRORS = [KnownErrors.VerificationCodeNotFound, KnownErrors.VerificationCodeExpired, KnownErrors.VerificationCodeAlreadyUsed];

/**
 * `/team-invitations/*` (SPEC.md §7 "Teams"): sending (a member with `$invite_members`, or a server),
 * listing and revoking a team's pending invitations, and the invited user's check, details and accept.
 */
export const teamInvitationsRoutes = [
  defineRoute({
    method: "post",
    path: "/team-invitations/send-code",
    summary: "Invite someone to a team",
    description:
      "Mails `<callback_url>?code=…`. A client's user needs `$invite_members` in the team; the callback must be a trusted URL. " +
      "Latchkey extension: `permission_ids` names roles granted on acceptance, each of which a client's user must hold itself.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: teamInvitationSendBody },
    response: { description: "Sent; the invitation's id.", schema: teamInvitationSentResponse },
    errors: [...INVITER_ERRORS, KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.PermissionNotFound, KnownErrors.PermissionScopeMismatch],
    handler: async (c, { auth, body }) => {
      const { id } = await sendTeamInvitation(c.get("deps"), auth, {
        teamId: body.team_id,
        email: body.email,
        callbackUrl: body.callback_url,
        permissionIds: body.permission_ids,
      });
      return { success: true, id } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/team-invitations/accept/check-code",
    summary: "Check a team invitation code",
    description: "Whether the code can still be accepted; nothing changes.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: verificationCodeBody },
    response: { description: "The code is valid.", schema: teamInvitationCheckResponse },
    errors: CODE_ERRORS,
    handler: async (c, { auth, body }) => {
      await checkTeamInvitation(c.get("deps").db, auth.project.id, body.code);
      return CODE_VALID_RESPONSE;
    },
  }),
  defineRoute({
    method: "post",
    path: "/team-invitations/accept/details",
    summary: "Read the team of an invitation code",
    description: "For the signed-in user about to accept; the code stays usable.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: verificationCodeBody },
    response: { description: "The team the code invites to.", schema: teamInvitationDetails },
    errors: [...CODE_ERRORS, KnownErrors.UserAuthenticationRequired, KnownErrors.TeamNotFound],
    handler: async (c, { auth, body }) => readInvitationDetails(c.get("deps").db, auth, body.code),
  }),
  defineRoute({
    method: "post",
    path: "/team-invitations/accept",
    summary: "Accept a team invitation",
    description: "The signed-in user joins the team with the member default permissions; the code is then used up.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: verificationCodeBody },
    response: { description: "Joined (an empty object).", schema: teamInvitationAcceptResponse },
    errors: [...CODE_ERRORS, KnownErrors.UserAuthenticationRequired, KnownErrors.TeamNotFound],
    handler: async (c, { auth, body }) => {
      await acceptTeamInvitation(c.get("deps").db, auth, body.code);
      return {};
    },
  }),
  defineRoute({
    method: "get",
    path: "/team-invitations",
    summary: "List a team's pending invitations, or those a user received",
    description:
      "`team_id`: a client's user must be a member holding `$read_members` and `$invite_members` (the error names the first missing). " +
      "`user_id` (2.8.108): the pending invitations addressed to the user's verified emails; a client lists only its own (`me`).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: teamInvitationListQuery },
    response: { description: "The pending invitations, oldest first.", schema: teamInvitationListResponse },
    errors: [...INVITER_ERRORS, KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound],
    handler: async (c, { auth, query }) => {
      const { db } = c.get("deps");
      const items =
        query.user_id !== undefined
          ? await listReceivedTeamInvitations(db, auth.project.id, invitedUser(auth, query.user_id, "list"))
          : await listTeamInvitations(db, auth, query.team_id!);
      return { items, is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/team-invitations/:invitation_id/accept",
    summary: "Accept a received team invitation",
    description:
      "2.8.108: the user (`me` for a client) joins the team of an invitation addressed to one of their verified emails, " +
      "without its code. Restricted users (anonymous, unverified) may not. A missing, used or expired invitation is a plain 404.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamInvitationIdParams, query: teamInvitationAcceptByIdQuery },
    response: { description: "Joined (an empty object).", schema: teamInvitationAcceptResponse },
    errors: [
      KnownErrors.CannotGetOwnUserWithoutUser,
      KnownErrors.UserNotFound,
      KnownErrors.TeamInvitationRestrictedUserNotAllowed,
      KnownErrors.TeamInvitationEmailMismatch,
      KnownErrors.TeamNotFound,
    ],
    handler: async (c, { auth, params, query }) => {
      await acceptReceivedTeamInvitation(c.get("deps").db, auth.project, invitedUser(auth, query.user_id, "accept"), params.invitation_id);
      return {};
    },
  }),
  defineRoute({
    method: "delete",
    path: "/team-invitations/:invitation_id",
    summary: "Revoke a team invitation",
    description: "A client's user must be a member holding `$remove_members`. The invitation's link stops working.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamInvitationIdParams, query: teamInvitationTeamQuery },
    response: { description: "Revoked.", schema: successResponse },
    errors: INVITER_ERRORS,
    handler: async (c, { auth, params, query }) => {
      await revokeTeamInvitation(c.get("deps").db, auth, { teamId: query.team_id, invitationId: params.invitation_id });
      return { success: true } as const;
    },
  }),
];

/**
 * The user whose received invitations a request lists or accepts: a client only its own (`me` or its id),
 * a server any user (`me` being its session's user, if any).
 */
function invitedUser(auth: RequestAuth, userId: string, action: "list" | "accept"): string {
  if (userId === "me" || auth.type === "client") {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (userId !== "me" && userId.toLowerCase() !== auth.user.id) {
      throw new HTTPException(403, { message: `Client can only ${action} team invitations for their own user. user_id must be either "me" or the ID of the current user` });
    }
    return auth.user.id;
  }
  return userId.toLowerCase();
}
