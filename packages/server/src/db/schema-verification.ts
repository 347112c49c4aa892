import type { ColumnType, Generated } from "kysely";

/** Table types of the verification-code tables (migrations/0004_*.sql); part of `Database` in schema.ts. */

export interface VerificationCodesTable {
  id: Generated<string>;
  project_id: string;
  purpose: string;
  kind: "link" | "otp";
  nonce_hash: Uint8Array;
  code_hash: Uint8Array;
  data: ColumnType<unknown, string, string>;
  email: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: number;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}

export interface VerificationTables {
  verification_codes: VerificationCodesTable;
}
