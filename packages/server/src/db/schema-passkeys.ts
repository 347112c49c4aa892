import type { ColumnType, Generated } from "kysely";

/** Table types of the passkey tables (migrations/0013_passkeys.sql); part of `Database` in schema.ts. */

export interface PasskeyCredentialsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  // bigint: PostgreSQL drivers hand it back as a string; services/passkeys.ts reads it with Number().
  counter: ColumnType<string | number, number | undefined, number>;
  transports: ColumnType<unknown, string | undefined, string>;
  device_type: string;
  backed_up: boolean;
  created_at: ColumnType<Date, Date | undefined, never>;
  last_used_at: Date | null;
}

export interface PasskeyChallengesTable {
  id: Generated<string>;
  project_id: string;
  purpose: "registration" | "authentication";
  code_hash: Uint8Array;
  challenge: string;
  user_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}

export interface PasskeyTables {
  passkey_credentials: PasskeyCredentialsTable;
  passkey_challenges: PasskeyChallengesTable;
}
