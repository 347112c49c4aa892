import type { ColumnType, Generated } from "kysely";
import type { EmailTables } from "./schema-emails.js";
import type { VerificationTables } from "./schema-verification.js";
import type { NotificationTables } from "./schema-notifications.js";
import type { PermissionTables } from "./schema-permissions.js";
import type { ProjectApiKeyTables } from "./schema-project-api-keys.js";
import type { PasskeyTables } from "./schema-passkeys.js";
import type { MfaCliTables } from "./schema-mfa-cli.js";
import type { OperationsTables } from "./schema-operations.js";
import type { ProfileImageTables } from "./schema-profile-images.js";
import type { AnalyticsTables } from "./schema-analytics.js";
import type { OAuthTables } from "./schema-oauth.js";
import type { WebhookTables } from "./schema-webhooks.js";
import type { PaymentTables } from "./schema-payments.js";
import type { DataVaultTables } from "./schema-data-vault.js";

/** Table types for the typed query layer; they mirror migrations/*.sql. */

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Json = ColumnType<unknown, string, string>;

export interface ProjectsTable {
  id: string;
  display_name: string;
  description: string | null;
  created_at: CreatedAt;
  is_production_mode: ColumnType<boolean, boolean | undefined, boolean>;
  owner_team_id: string | null;
  logo_url: string | null;
  full_logo_url: string | null;
  logo_dark_mode_url: ColumnType<string | null, string | null | undefined, string | null>;
  logo_full_dark_mode_url: ColumnType<string | null, string | null | undefined, string | null>;
  is_development_environment: ColumnType<boolean, boolean | undefined, boolean>;
  onboarding_status: ColumnType<string, string | undefined, string>;
  config_override: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface TeamsTable {
  id: Generated<string>;
  project_id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: Json | null;
  client_read_only_metadata: Json | null;
  server_metadata: Json | null;
  created_at: CreatedAt;
}

export interface ApiKeySetsTable {
  id: Generated<string>;
  project_id: string;
  description: string;
  created_at: CreatedAt;
  expires_at: Date | null;
  manually_revoked_at: Date | null;
  publishable_client_key_hash: Uint8Array | null;
  publishable_client_key_last_four: string | null;
  /** The key itself (public, so shown again); null for keys made before migration 0038. */
  publishable_client_key: string | null;
  secret_server_key_hash: Uint8Array | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: Uint8Array | null;
  super_secret_admin_key_last_four: string | null;
}

export interface UsersTable {
  id: Generated<string>;
  project_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  password_hash: string | null;
  totp_secret: Uint8Array | null;
  otp_auth_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  passkey_auth_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  is_anonymous: ColumnType<boolean, boolean | undefined, boolean>;
  client_metadata: Json | null;
  client_read_only_metadata: Json | null;
  server_metadata: Json | null;
  selected_team_id: string | null;
  created_at: CreatedAt;
  last_active_at: ColumnType<Date, Date | undefined, Date>;
  restricted_by_admin: ColumnType<boolean, boolean | undefined, boolean>;
  restricted_by_admin_reason: ColumnType<string | null, string | null | undefined, string | null>;
  restricted_by_admin_private_details: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: ColumnType<string | null, string | null | undefined, string | null>;
  risk_score_bot: ColumnType<number, number | undefined, number>;
  risk_score_free_trial_abuse: ColumnType<number, number | undefined, number>;
}

export interface ContactChannelsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string;
  type: "email";
  value: string;
  is_verified: ColumnType<boolean, boolean | undefined, boolean>;
  is_primary: ColumnType<boolean, boolean | undefined, boolean>;
  used_for_auth: ColumnType<boolean, boolean | undefined, boolean>;
  /** An address from before migration 0020 that differs only in case from an earlier account's: kept signing in. */
  case_duplicate: ColumnType<boolean, never, never>;
  created_at: CreatedAt;
}

export interface AuthThrottlesTable {
  key: string;
  failures: number;
  last_failure_at: Date;
  blocked_until: Date;
  /** Attempts admitted and not yet settled (migration 0036). */
  in_flight: ColumnType<number, number | undefined, number>;
  in_flight_since: ColumnType<Date, Date | undefined, Date>;
}

export interface TeamMembersTable {
  project_id: string;
  team_id: string;
  user_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string;
  refresh_token_hash: Uint8Array;
  is_impersonation: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  expires_at: Date | null;
  last_used_at: ColumnType<Date, Date | undefined, Date>;
  last_used_ip: string | null;
  /** The browser's User-Agent (at most 512 characters) when the session was made, and at its last use. */
  created_user_agent: string | null;
  last_used_user_agent: string | null;
  /** ISO 3166-1 alpha-2, as the deployment's trusted edge proxy reported it for the last use. */
  last_used_country_code: string | null;
}

export interface Database
  extends EmailTables,
    VerificationTables,
    NotificationTables,
    PermissionTables,
    ProjectApiKeyTables,
    MfaCliTables,
    PasskeyTables,
    ProfileImageTables,
    OperationsTables,
    AnalyticsTables,
    OAuthTables,
    WebhookTables,
    PaymentTables,
    DataVaultTables {
  projects: ProjectsTable;
  teams: TeamsTable;
  api_key_sets: ApiKeySetsTable;
  users: UsersTable;
  contact_channels: ContactChannelsTable;
  auth_throttles: AuthThrottlesTable;
  team_members: TeamMembersTable;
  sessions: SessionsTable;
}
