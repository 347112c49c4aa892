import type { ColumnType, Generated } from "kysely";

/** Table types of the email tables (migrations/0003_*.sql); part of `Database` in schema.ts. */

/** The sender of a sent email as `GET /internal/emails` shows it: the email config without its password. */
export interface SentEmailSenderConfig {
  type: "shared" | "standard";
  host?: string;
  port?: number;
  username?: string;
  sender_name?: string;
  sender_email?: string;
}

export interface SentEmailsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string | null;
  template: string | null;
  recipient: string;
  subject: string;
  html: string | null;
  text: string | null;
  sender_config: ColumnType<SentEmailSenderConfig, string, string>;
  delivery: "smtp" | "outbox";
  error: string | null;
  sent_at: ColumnType<Date, Date | undefined, never>;
}

export interface EmailTables {
  sent_emails: SentEmailsTable;
}
