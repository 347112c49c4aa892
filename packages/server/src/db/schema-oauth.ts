import type { ColumnType, Generated } from "kysely";

/** Table types of the OAuth tables (migrations/0019_oauth.sql); part of `Database` in schema.ts. */

export interface OAuthAccountsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string;
  provider_config_id: string;
  provider_account_id: string;
  email: string | null;
  allow_sign_in: ColumnType<boolean, boolean | undefined, boolean>;
  allow_connected_accounts: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface OAuthTokensTable {
  id: Generated<string>;
  oauth_account_id: string;
  kind: "access" | "refresh";
  sealed_token: Uint8Array;
  sealing_key_id: string;
  scopes: ColumnType<string[], string[] | undefined, string[]>;
  expires_at: Date | null;
  is_valid: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface OAuthOuterStatesTable {
  state_hash: Uint8Array;
  project_id: string;
  info: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
}

export interface OAuthAuthorizationCodesTable {
  code_hash: Uint8Array;
  project_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  is_new_user: boolean;
  after_callback_redirect_url: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
}

export interface OAuthTables {
  oauth_accounts: OAuthAccountsTable;
  oauth_tokens: OAuthTokensTable;
  oauth_outer_states: OAuthOuterStatesTable;
  oauth_authorization_codes: OAuthAuthorizationCodesTable;
}
