import type { AdminProjectRead, ClientProjectRead } from "@latchkey/protocol/schemas";

/** The public view of a project (GET /projects/current): which sign-in methods it offers. */
export interface Project {
  id: string;
  displayName: string;
  config: {
    signUpEnabled: boolean;
    credentialEnabled: boolean;
    magicLinkEnabled: boolean;
    passkeyEnabled: boolean;
    clientTeamCreationEnabled: boolean;
    clientUserDeletionEnabled: boolean;
    allowUserApiKeys: boolean;
    allowTeamApiKeys: boolean;
    oauthProviders: Array<{ id: string }>;
  };
}

export function projectFromWire(wire: ClientProjectRead): Project {
  const c = wire.config;
  return {
    id: wire.id,
    displayName: wire.display_name,
    config: {
      signUpEnabled: c.sign_up_enabled,
      credentialEnabled: c.credential_enabled,
      magicLinkEnabled: c.magic_link_enabled,
      passkeyEnabled: c.passkey_enabled,
      clientTeamCreationEnabled: c.client_team_creation_enabled,
      clientUserDeletionEnabled: c.client_user_deletion_enabled,
      allowUserApiKeys: c.allow_user_api_keys,
      allowTeamApiKeys: c.allow_team_api_keys,
      oauthProviders: c.enabled_oauth_providers.map((p) => ({ id: p.id })),
    },
  };
}

/**
 * The admin view of a project (GET /internal/projects/current). Its `config` is the wire's legacy config
 * object, passed through as the server sends it: it is large and admin-only, and mapping it field by field
 * would only duplicate the protocol schema.
 */
export interface AdminProject {
  id: string;
  displayName: string;
  description: string;
  logoUrl: string | null;
  fullLogoUrl: string | null;
  createdAt: Date;
  isProductionMode: boolean;
  ownerTeamId: string | null;
  config: AdminProjectRead["config"];
}

export function adminProjectFromWire(wire: AdminProjectRead): AdminProject {
  return {
    id: wire.id,
    displayName: wire.display_name,
    description: wire.description,
    logoUrl: wire.logo_url ?? null,
    fullLogoUrl: wire.full_logo_url ?? null,
    createdAt: new Date(wire.created_at_millis),
    isProductionMode: wire.is_production_mode,
    ownerTeamId: wire.owner_team_id,
    config: wire.config,
  };
}

export interface AdminProjectUpdate {
  displayName?: string;
  description?: string | null;
  logoUrl?: string | null;
  fullLogoUrl?: string | null;
  isProductionMode?: boolean;
  /** Wire (snake_case) config fields, as PATCH /internal/projects/current takes them. */
  config?: Record<string, unknown>;
}

export function adminProjectUpdateToWire(update: AdminProjectUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (update.displayName !== undefined) body.display_name = update.displayName;
  if (update.description !== undefined) body.description = update.description;
  if (update.logoUrl !== undefined) body.logo_url = update.logoUrl;
  if (update.fullLogoUrl !== undefined) body.full_logo_url = update.fullLogoUrl;
  if (update.isProductionMode !== undefined) body.is_production_mode = update.isProductionMode;
  if (update.config !== undefined) body.config = update.config;
  return body;
}

/** A new project of a signed-in internal-project user (`POST /internal/projects`). */
export interface OwnedProjectCreate {
  displayName: string;
  description?: string | null;
  /** The team that owns it: one of the user's teams (e.g. their selected, personal team). */
  ownerTeamId: string;
}
