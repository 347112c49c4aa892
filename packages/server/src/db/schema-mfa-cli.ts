import type { ColumnType, Generated } from "kysely";

/** Table types of the TOTP replay guard and the CLI login attempts (migrations/0012_*.sql); part of `Database` in schema.ts. */

export interface TotpUsedStepsTable {
  user_id: string;
  secret_hash: Uint8Array;
  /** A bigint column; read back as a string by node-postgres, so compared in SQL only. */
  last_used_step: ColumnType<string | number, number, number>;
}

export interface CliAuthAttemptsTable {
  id: Generated<string>;
  project_id: string;
  polling_code_hash: Uint8Array;
  login_code_hash: Uint8Array;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  completed_at: Date | null;
  used_at: Date | null;
  /** The refresh token the confirming browser sent (migrations/0031_*.sql), sealed; null once handed to the tool. */
  refresh_token_sealed: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  refresh_token_sealing_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The anonymous session the command-line tool had when it started (2.8.108 `anon_refresh_token`). */
  anonymous_session_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface MfaCliTables {
  totp_used_steps: TotpUsedStepsTable;
  cli_auth_attempts: CliAuthAttemptsTable;
}
