import type { EmailDraftRead, EmailTemplateRead } from "@latchkey/protocol/schemas";

/**
 * Emails as code (issue 19) as an admin app sees them: themes, templates and drafts in TSX, camelCase. A
 * `themeId` is a theme's id, `false` for no theme, or undefined for the project's selected theme.
 */

export type EmailThemeChoice = string | false;

export interface EmailThemeSummary {
  id: string;
  displayName: string;
}

export interface EmailTheme {
  displayName: string;
  tsxSource: string;
}

export interface EmailTemplate {
  id: string;
  displayName: string;
  tsxSource: string;
  themeId?: EmailThemeChoice;
}

export interface EmailTemplateUpdate {
  displayName?: string;
  tsxSource?: string;
  /** null: back to the project's selected theme. */
  themeId?: EmailThemeChoice | null;
}

export interface EmailDraft {
  id: string;
  displayName: string;
  tsxSource: string;
  themeId?: EmailThemeChoice;
  /** When it was sent with `send-email`; null while it is a draft. */
  sentAt: Date | null;
}

export interface EmailDraftCreate {
  displayName: string;
  themeId?: EmailThemeChoice | null;
  /** Without one, the draft starts from the server's short example. */
  tsxSource?: string;
}

export interface EmailDraftUpdate {
  displayName?: string;
  themeId?: EmailThemeChoice | null;
  tsxSource?: string;
  /** null marks it unsent again. */
  sentAt?: Date | null;
}

/** What to preview: a theme (by id, `false` for none, or inline source) around a template (by id or inline source). */
export interface EmailPreviewRequest {
  themeId?: EmailThemeChoice | null;
  themeTsxSource?: string;
  templateId?: string;
  templateTsxSource?: string;
  variables?: Record<string, unknown>;
}

/** A rendered preview: the subject and category are there only when the template sets them. */
export interface EmailPreview {
  html: string;
  subject?: string;
  notificationCategory?: string;
}

export function emailTemplateFromWire(wire: EmailTemplateRead): EmailTemplate {
  return {
    id: wire.id,
    displayName: wire.display_name,
    tsxSource: wire.tsx_source,
    ...(wire.theme_id !== undefined ? { themeId: wire.theme_id } : {}),
  };
}

export function emailDraftFromWire(wire: EmailDraftRead): EmailDraft {
  return {
    id: wire.id,
    displayName: wire.display_name,
    tsxSource: wire.tsx_source,
    ...(wire.theme_id !== undefined ? { themeId: wire.theme_id } : {}),
    sentAt: wire.sent_at_millis === null ? null : new Date(wire.sent_at_millis),
  };
}

export function emailDraftUpdateToWire(update: EmailDraftUpdate): Record<string, unknown> {
  return {
    display_name: update.displayName,
    theme_id: update.themeId,
    tsx_source: update.tsxSource,
    sent_at_millis: update.sentAt === undefined ? undefined : update.sentAt === null ? null : update.sentAt.getTime(),
  };
}
