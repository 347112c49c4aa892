import { z } from "zod";
import { callbackUrl } from "./auth.js";
import { emailAddress } from "./project-config.js";

/**
 * Wire shapes of team invitations (`/team-invitations/*`, SPEC.md §7 "Teams"): a member with
 * `$invite_members` (or a server) mails a code; the invited person, signed in, checks it, reads the team it
 * is for, and accepts it to become a member.
 */

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: "must be a valid UUID" });

/** `POST /team-invitations/send-code` */
export const teamInvitationSendBody = z.strictObject({
  team_id: uuid,
  email: emailAddress,
  callback_url: callbackUrl,
});
export type TeamInvitationSendBody = z.infer<typeof teamInvitationSendBody>;

/** `GET /team-invitations?team_id=…` and `DELETE /team-invitations/{id}?team_id=…` */
export const teamInvitationTeamQuery = z.strictObject({ team_id: uuid });

/** One pending invitation as listed. */
export interface TeamInvitationRead {
  id: string;
  team_id: string;
  expires_at_millis: number;
  recipient_email: string;
}

/** `POST /team-invitations/accept/details`: which team a code invites to. */
export interface TeamInvitationDetails {
  team_id: string;
  team_display_name: string;
}
