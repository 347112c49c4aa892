import type { ColumnType } from "kysely";

/** Table types of users' and teams' API keys (migrations/0011_*.sql); part of `Database` in schema.ts. */

export interface ProjectApiKeysTable {
  id: string;
  project_id: string;
  type: "user" | "team";
  user_id: string | null;
  team_id: string | null;
  description: string;
  is_public: boolean;
  secret_hash: Uint8Array;
  last_four: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date | null;
  manually_revoked_at: Date | null;
}

export interface ProjectApiKeyTables {
  project_api_keys: ProjectApiKeysTable;
}

