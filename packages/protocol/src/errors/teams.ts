/** Errors about teams and team memberships. */
import { defineKnownError } from "./known-error.js";
import type { RestrictedReason } from "./users.js";

export const TeamNotFound = defineKnownError("TEAM_NOT_FOUND", {
  status: 404,
  build: (teamId: string) => ({ message: `Team ${teamId} not found.`, details: { team_id: teamId } }),
  fromDetails: (d) => [d?.team_id],
});

export const TeamMembershipNotFound = defineKnownError("TEAM_MEMBERSHIP_NOT_FOUND", {
  status: 404,
  build: (teamId: string, userId: string) => ({
    message: `User ${userId} is not found in team ${teamId}.`,
    details: { team_id: teamId, user_id: userId },
  }),
  fromDetails: (d) => [d?.team_id, d?.user_id],
});

export const TeamMembershipAlreadyExists = defineKnownError("TEAM_MEMBERSHIP_ALREADY_EXISTS", {
  status: 409,
  build: () => ({ message: "Team membership already exists." }),
  fromDetails: () => [],
});

/** Newer protocol (2.8.108) only: a restricted user (anonymous, say) accepting an invitation by its id. */
export const TeamInvitationRestrictedUserNotAllowed = defineKnownError("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", {
  status: 403,
  build: (restrictedReason: RestrictedReason) => ({
    message: `Restricted users cannot accept team invitations. Reason: ${restrictedReason.type}. Please complete the onboarding process before accepting team invitations.`,
    details: { restricted_reason: restrictedReason },
  }),
  fromDetails: (d): [RestrictedReason] => [d?.restricted_reason ?? { type: "anonymous" }],
});

/** Newer protocol (2.8.108) only: the invitation was sent to an address that is not one of the user's verified ones. */
export const TeamInvitationEmailMismatch = defineKnownError("TEAM_INVITATION_EMAIL_MISMATCH", {
  status: 403,
  build: () => ({
    message:
      "This team invitation was sent to a different email address. Sign in with the invited email, or add and verify that email on your account, then try again.",
  }),
  fromDetails: () => [],
});
