import type { ProjectApiKeyCreated, ProjectApiKeyRead } from "@latchkey/protocol/schemas";

/** An API key of the signed-in user (/user-api-keys). Listed keys show their last four characters only. */
export interface UserApiKey {
  id: string;
  description: string;
  /** null: the key never expires. */
  expiresAt: Date | null;
  manuallyRevokedAt: Date | null;
  createdAt: Date;
  value: { lastFour: string };
}

/** A key just created: the only time its whole value is shown. */
export interface UserApiKeyFirstView extends Omit<UserApiKey, "value"> {
  value: string;
}

export interface UserApiKeyCreate {
  description: string;
  expiresAt: Date | null;
}

function commonFields(wire: ProjectApiKeyRead | ProjectApiKeyCreated) {
  return {
    id: wire.id,
    description: wire.description,
    expiresAt: wire.expires_at_millis === undefined ? null : new Date(wire.expires_at_millis),
    manuallyRevokedAt: wire.manually_revoked_at_millis === undefined ? null : new Date(wire.manually_revoked_at_millis),
    createdAt: new Date(wire.created_at_millis),
  };
}

export function userApiKeyFromWire(wire: ProjectApiKeyRead): UserApiKey {
  return { ...commonFields(wire), value: { lastFour: wire.value.last_four } };
}

export function userApiKeyFirstViewFromWire(wire: ProjectApiKeyCreated): UserApiKeyFirstView {
  return { ...commonFields(wire), value: wire.value };
}

/** The create body: the owner is the signed-in user (`me`) as the reference client sends it, or a server names the user. */
export function userApiKeyCreateToWire(create: UserApiKeyCreate, userId = "me"): Record<string, unknown> {
  return { description: create.description, expires_at_millis: create.expiresAt === null ? null : create.expiresAt.getTime(), user_id: userId };
}
