import type { TeamMemberProfileServerRead, TeamServerRead } from "@latchkey/protocol/schemas";
import { teamFromWire, teamUpdateToWire, type Team, type TeamUpdate } from "./teams.js";
import { serverUserFromWire, type ServerUser, type WireServerUser } from "./users.js";

/** A team as a server (or admin) reads it: the client's view plus when it was made and its server metadata. */
export interface ServerTeam extends Team {
  createdAt: Date;
  serverMetadata: unknown;
}

export function serverTeamFromWire(wire: TeamServerRead): ServerTeam {
  return { ...teamFromWire(wire), createdAt: new Date(wire.created_at_millis), serverMetadata: wire.server_metadata };
}

/** What a server may change about any team: everything a member may, plus the metadata clients cannot write. */
export interface ServerTeamUpdate extends TeamUpdate {
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

/** A new team made by a server: with `creatorUserId` that user joins it with the creator defaults, else it starts empty. */
export interface ServerTeamCreate extends ServerTeamUpdate {
  displayName: string;
  creatorUserId?: string;
}

/** The wire body of a server's team update: only the fields given (omitted ones stay unchanged). */
export function serverTeamUpdateToWire(update: ServerTeamUpdate): Record<string, unknown> {
  const body = teamUpdateToWire(update);
  if (update.clientReadOnlyMetadata !== undefined) body.client_read_only_metadata = update.clientReadOnlyMetadata;
  if (update.serverMetadata !== undefined) body.server_metadata = update.serverMetadata;
  return body;
}

export function serverTeamCreateToWire(create: ServerTeamCreate): Record<string, unknown> {
  const body = serverTeamUpdateToWire(create);
  if (create.creatorUserId !== undefined) body.creator_user_id = create.creatorUserId;
  return body;
}

/** A member of a team as a server sees them: their name and image in the team, and the whole user. */
export interface ServerTeamMember {
  teamId: string;
  userId: string;
  displayName: string | null;
  profileImageUrl: string | null;
  user: ServerUser;
}

export function serverTeamMemberFromWire(wire: TeamMemberProfileServerRead): ServerTeamMember {
  return {
    teamId: wire.team_id,
    userId: wire.user_id,
    displayName: wire.display_name,
    profileImageUrl: wire.profile_image_url,
    user: serverUserFromWire(wire.user as WireServerUser),
  };
}
