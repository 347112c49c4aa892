import type { TeamClientRead } from "@latchkey/protocol/schemas";

export interface Team {
  id: string;
  displayName: string;
  profileImageUrl: string | null;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
}

export function teamFromWire(wire: TeamClientRead): Team {
  return {
    id: wire.id,
    displayName: wire.display_name,
    profileImageUrl: wire.profile_image_url,
    clientMetadata: wire.client_metadata,
    clientReadOnlyMetadata: wire.client_read_only_metadata,
  };
}

/** What a member holding `$update_team` may change about a team (PATCH /teams/{id}, client). */
export interface TeamUpdate {
  displayName?: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
}

/** A new team; the signed-in user creates it and becomes its first member. */
export interface TeamCreate {
  displayName: string;
  profileImageUrl?: string | null;
}

/** The wire body of a team update: only the fields given (omitted ones stay unchanged). */
export function teamUpdateToWire(update: TeamUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (update.displayName !== undefined) body.display_name = update.displayName;
  if (update.profileImageUrl !== undefined) body.profile_image_url = update.profileImageUrl;
  if (update.clientMetadata !== undefined) body.client_metadata = update.clientMetadata;
  return body;
}

/** The create body as the reference client sends it: `creator_user_id: "me"` makes the caller a member. */
export function teamCreateToWire(create: TeamCreate): Record<string, unknown> {
  return { ...teamUpdateToWire(create), creator_user_id: "me" };
}
