import type { ColumnType } from "kysely";

/**
 * Table types of migrations/0015_signing_keys_and_activity.sql (access-token signing keys, user activity);
 * part of `Database` in schema.ts.
 */

export interface SigningKeyGenerationsTable {
  id: string;
  seed_ciphertext: Uint8Array;
  wrapping_key_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  activated_at: Date | null;
  retired_at: Date | null;
}

export interface UserActivityDaysTable {
  project_id: string;
  user_id: string;
  /** A `date`: read back as text (`YYYY-MM-DD`) by the queries that use it. */
  day: ColumnType<Date | string, string, string>;
  country_code: string | null;
  /** The day's newest access token given to the user (migrations/0032_*.sql); null when none was. */
  last_token_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Active days of deleted users, counted per project and day (migrations/0032_*.sql). */
export interface DeletedUserActivityDaysTable {
  project_id: string;
  day: ColumnType<Date | string, string, string>;
  users: number;
  anonymous_users: number;
}

export interface OperationsTables {
  signing_key_generations: SigningKeyGenerationsTable;
  user_activity_days: UserActivityDaysTable;
  deleted_user_activity_days: DeletedUserActivityDaysTable;
}
