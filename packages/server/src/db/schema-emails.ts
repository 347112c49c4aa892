import type { ColumnType, Generated } from "kysely";

/** Table types of the email tables (migrations/0003_*.sql, 0025_*.sql); part of `Database` in schema.ts. */

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

/** A draft's theme: the project's selected one, none, or `theme_id`. */
export type EmailDraftThemeMode = "project_default" | "none" | "custom";

export interface EmailDraftsTable {
  id: Generated<string>;
  project_id: string;
  display_name: string;
  tsx_source: string;
  theme_mode: ColumnType<EmailDraftThemeMode, EmailDraftThemeMode | undefined, EmailDraftThemeMode>;
  theme_id: string | null;
  sent_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** When the daily digest of all projects last ran (a single row). */
export interface FailedEmailDigestRunsTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  last_run_at: Date;
}

export interface EmailTables {
  sent_emails: SentEmailsTable;
  email_drafts: EmailDraftsTable;
  failed_email_digest_runs: FailedEmailDigestRunsTable;
}
