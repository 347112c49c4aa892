import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";
import { callbackUrl } from "./auth.js";
import { emailAddress } from "./project-config.js";
import { unpaginatedList } from "./list-response.js";
import { newerField } from "./dialect-fields.js";

/**
 * Wire shapes of team invitations (`/team-invitations/*`, SPEC.md §7 "Teams"): a member with
 * `$invite_members` (or a server) mails a code; the invited person, signed in, checks it, reads the team it
 * is for, and accepts it to become a member.
 */

/**
 * A Latchkey extension to the invitation (issue 16): roles the invited person gets on joining, on top of the
 * member defaults. Ids of the project's own team permissions; the `$…` system permissions are not roles.
 */
const invitationRoleIds = z
  .array(z.string().min(1).refine((id) => !id.startsWith("$"), { message: "must be one of the project's team permissions, not a $ system permission" }))
  .max(50)
  .meta({
    description:
      "Latchkey extension (not in the Stack Auth protocol): team permissions granted on acceptance, on top of the member defaults. " +
      "A client's user must hold each of them (directly or contained in one it holds).",
  });

/** `POST /team-invitations/send-code` */
export const teamInvitationSendBody = z.strictObject({
  team_id: uuid,
  email: emailAddress,
  callback_url: callbackUrl,
  permission_ids: invitationRoleIds.optional(),
});
export type TeamInvitationSendBody = z.infer<typeof teamInvitationSendBody>;

/** `DELETE /team-invitations/{id}?team_id=…` */
export const teamInvitationTeamQuery = z.strictObject({ team_id: uuid });

/**
 * `GET /team-invitations?team_id=…`: a team's pending invitations; 2.8.108 also lists those addressed to a
 * user (`user_id=me`, or any user for a server) instead. One of the two, never both.
 */
export const teamInvitationListQuery = z
  .strictObject({
    team_id: uuid.optional(),
    user_id: newerField(userIdOrMe.optional()),
  })
  .superRefine((query, ctx) => {
    if (query.team_id === undefined && query.user_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["team_id"], message: "must be defined", params: { requiredField: true } });
    } else if (query.team_id !== undefined && query.user_id !== undefined) {
      ctx.addIssue({ code: "custom", path: ["user_id"], message: "cannot be given together with team_id" });
    }
  });

/** `POST /team-invitations/{id}/accept?user_id=…` (2.8.108): who accepts, `me` for a client. */
export const teamInvitationAcceptByIdQuery = z.strictObject({ user_id: newerField(userIdOrMe) });

/** `POST /team-invitations/send-code`: the new invitation's id. */
export const teamInvitationSentResponse = z.strictObject({ success: z.literal(true), id: z.string() });

/** `POST /team-invitations/accept/check-code`: the code can still be used. */
export const teamInvitationCheckResponse = z.strictObject({ is_code_valid: z.literal(true) });

/** `POST /team-invitations/accept`: an empty object. */
export const teamInvitationAcceptResponse = z.strictObject({});

/** `DELETE /team-invitations/{id}`: the invitation's id, any string (an unknown one is not found). */
export const teamInvitationIdParams = z.object({ invitation_id: z.string() });

/** One pending invitation as listed. */
export const teamInvitationRead = z.strictObject({
  id: z.string(),
  team_id: z.string(),
  team_display_name: newerField(z.string()),
  expires_at_millis: z.number(),
  recipient_email: z.string(),
});
export type TeamInvitationRead = z.infer<typeof teamInvitationRead>;

/** `GET /team-invitations`, oldest first. */
export const teamInvitationListResponse = unpaginatedList(teamInvitationRead);

/** `POST /team-invitations/accept/details`: which team a code invites to. */
export const teamInvitationDetails = z.strictObject({
  team_id: z.string(),
  team_display_name: z.string(),
});
export type TeamInvitationDetails = z.infer<typeof teamInvitationDetails>;
