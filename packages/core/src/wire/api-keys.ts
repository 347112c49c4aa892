import type { InternalApiKeyCreated, InternalApiKeyRead, InternalPublishableClientKey } from "@latchkey/protocol/schemas";

/** A project key set (/internal/api-keys). Listed keys show their last four characters only. */
export interface InternalApiKey {
  id: string;
  description: string;
  expiresAt: Date;
  manuallyRevokedAt: Date | null;
  createdAt: Date;
  publishableClientKey: { lastFour: string } | null;
  secretServerKey: { lastFour: string } | null;
  superSecretAdminKey: { lastFour: string } | null;
}

/** A key set just created: the only time its full key values are shown. */
export interface InternalApiKeyFirstView extends Omit<InternalApiKey, "publishableClientKey" | "secretServerKey" | "superSecretAdminKey"> {
  publishableClientKey: string | null;
  secretServerKey: string | null;
  superSecretAdminKey: string | null;
}

const lastFour = (key: { last_four: string } | undefined) => (key ? { lastFour: key.last_four } : null);

function commonFields(wire: InternalApiKeyRead | InternalApiKeyCreated) {
  return {
    id: wire.id,
    description: wire.description,
    expiresAt: new Date(wire.expires_at_millis),
    manuallyRevokedAt: wire.manually_revoked_at_millis === undefined ? null : new Date(wire.manually_revoked_at_millis),
    createdAt: new Date(wire.created_at_millis),
  };
}

export function internalApiKeyFromWire(wire: InternalApiKeyRead): InternalApiKey {
  return {
    ...commonFields(wire),
    publishableClientKey: lastFour(wire.publishable_client_key),
    secretServerKey: lastFour(wire.secret_server_key),
    superSecretAdminKey: lastFour(wire.super_secret_admin_key),
  };
}

export function internalApiKeyFirstViewFromWire(wire: InternalApiKeyCreated): InternalApiKeyFirstView {
  return {
    ...commonFields(wire),
    publishableClientKey: wire.publishable_client_key ?? null,
    secretServerKey: wire.secret_server_key ?? null,
    superSecretAdminKey: wire.super_secret_admin_key ?? null,
  };
}

export interface InternalApiKeyCreate {
  description: string;
  expiresAt: Date;
  hasPublishableClientKey: boolean;
  hasSecretServerKey: boolean;
  hasSuperSecretAdminKey: boolean;
}

/**
 * A publishable client key shown in full (Latchkey's `GET /internal/publishable-client-keys`): it is public, so
 * the server keeps it to show again. `keySetId` is the key set it belongs to.
 */
export interface PublishableClientKey {
  keySetId: string;
  description: string;
  publishableClientKey: string;
  createdAt: Date;
  expiresAt: Date;
}

export function publishableClientKeyFromWire(wire: InternalPublishableClientKey): PublishableClientKey {
  return {
    keySetId: wire.id,
    description: wire.description,
    publishableClientKey: wire.publishable_client_key,
    createdAt: new Date(wire.created_at_millis),
    expiresAt: new Date(wire.expires_at_millis),
  };
}
