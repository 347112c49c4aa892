import type { ColumnType, Generated } from "kysely";

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
  secret_server_key_hash: Uint8Array | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: Uint8Array | null;
  super_secret_admin_key_last_four: string | null;
}

export interface Database {
  projects: ProjectsTable;
  teams: TeamsTable;
  api_key_sets: ApiKeySetsTable;
}
