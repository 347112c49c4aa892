import type { TeamInvitationDetails as WireTeamInvitationDetails, TeamInvitationRead } from "@latchkey/protocol/schemas";

/** A pending invitation to a team (GET /team-invitations?team_id=). */
export interface TeamInvitation {
  id: string;
  recipientEmail: string;
  expiresAt: Date;
}

/** Which team an invitation code is for (POST /team-invitations/accept/details). */
export interface TeamInvitationDetails {
  teamId: string;
  teamDisplayName: string;
}

export function teamInvitationFromWire(wire: TeamInvitationRead): TeamInvitation {
  return { id: wire.id, recipientEmail: wire.recipient_email, expiresAt: new Date(wire.expires_at_millis) };
}

export function teamInvitationDetailsFromWire(wire: WireTeamInvitationDetails): TeamInvitationDetails {
  return { teamId: wire.team_id, teamDisplayName: wire.team_display_name };
}
