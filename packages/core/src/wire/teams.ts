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
