/**
 * The one place users cross between the wire (snake_case JSON, SPEC.md §3) and the library (camelCase).
 * Metadata objects pass through untouched: their keys belong to the application.
 */

export interface WireClientUser {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean;
  display_name: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  profile_image_url: string | null;
  signed_up_at_millis: number;
  has_password: boolean;
  auth_with_email: boolean;
  oauth_providers: Array<{ id: string; account_id?: string; email: string | null }>;
  selected_team_id: string | null;
  requires_totp_mfa: boolean;
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  is_anonymous: boolean;
}

export interface WireServerUser extends WireClientUser {
  primary_email_auth_enabled: boolean;
  server_metadata: unknown;
  last_active_at_millis: number;
}

export interface CurrentUser {
  id: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  profileImageUrl: string | null;
  signedUpAt: Date;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
  hasPassword: boolean;
  emailAuthEnabled: boolean;
  otpAuthEnabled: boolean;
  passkeyAuthEnabled: boolean;
  oauthProviders: Array<{ id: string; email: string | null }>;
  isMultiFactorRequired: boolean;
  isAnonymous: boolean;
  selectedTeamId: string | null;
}

export interface ServerUser extends CurrentUser {
  serverMetadata: unknown;
  lastActiveAt: Date;
}

export function userFromWire(wire: WireClientUser): CurrentUser {
  return {
    id: wire.id,
    displayName: wire.display_name,
    primaryEmail: wire.primary_email,
    primaryEmailVerified: wire.primary_email_verified,
    profileImageUrl: wire.profile_image_url,
    signedUpAt: new Date(wire.signed_up_at_millis),
    clientMetadata: wire.client_metadata,
    clientReadOnlyMetadata: wire.client_read_only_metadata,
    hasPassword: wire.has_password,
    emailAuthEnabled: wire.auth_with_email,
    otpAuthEnabled: wire.otp_auth_enabled,
    passkeyAuthEnabled: wire.passkey_auth_enabled,
    oauthProviders: wire.oauth_providers.map((p) => ({ id: p.id, email: p.email })),
    isMultiFactorRequired: wire.requires_totp_mfa,
    isAnonymous: wire.is_anonymous,
    selectedTeamId: wire.selected_team_id,
  };
}

export function serverUserFromWire(wire: WireServerUser): ServerUser {
  return { ...userFromWire(wire), serverMetadata: wire.server_metadata, lastActiveAt: new Date(wire.last_active_at_millis) };
}

/** What a signed-in user may change about themself (PATCH /users/me, client). */
export interface UserUpdate {
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  selectedTeamId?: string | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  /** Base64 TOTP secret; `null` turns two-factor off. */
  totpSecretBase64?: string | null;
}

/** What a server may set on any user (POST /users, PATCH /users/{id}). */
export interface ServerUserUpdate extends UserUpdate {
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  /** Setting a password revokes every session of the user (SPEC.md §3). */
  password?: string | null;
  passwordHash?: string;
}

export interface ServerUserCreate extends Omit<ServerUserUpdate, "selectedTeamId"> {
  isAnonymous?: boolean;
}

const USER_FIELDS_TO_WIRE = {
  displayName: "display_name",
  profileImageUrl: "profile_image_url",
  clientMetadata: "client_metadata",
  selectedTeamId: "selected_team_id",
  otpAuthEnabled: "otp_auth_enabled",
  passkeyAuthEnabled: "passkey_auth_enabled",
  totpSecretBase64: "totp_secret_base64",
  primaryEmail: "primary_email",
  primaryEmailVerified: "primary_email_verified",
  primaryEmailAuthEnabled: "primary_email_auth_enabled",
  clientReadOnlyMetadata: "client_read_only_metadata",
  serverMetadata: "server_metadata",
  password: "password",
  passwordHash: "password_hash",
  isAnonymous: "is_anonymous",
} as const;

/** The wire body of a user update or create: only the fields given (omitted ones stay unchanged). */
export function userUpdateToWire(update: ServerUserUpdate & { isAnonymous?: boolean }): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, wireKey] of Object.entries(USER_FIELDS_TO_WIRE)) {
    const value = (update as Record<string, unknown>)[key];
    if (value !== undefined) body[wireKey] = value;
  }
  return body;
}
