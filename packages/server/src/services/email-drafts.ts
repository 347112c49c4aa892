import { HTTPException } from "hono/http-exception";
import type { EmailDraftRead } from "@latchkey/protocol/schemas";
import type { Db } from "../db/connect.js";
import type { EmailDraftThemeMode } from "../db/schema-emails.js";
import { NEW_EMAIL_DRAFT_SOURCE } from "../email/built-in-templates.js";

/**
 * `/internal/email-drafts` (issue 19): one-off mails in TSX, in the `email_drafts` table, per project. The
 * theme is stored as a mode (the project's selected theme, none, or a theme id) because the wire's three
 * values (`absent`, `false`, an id) do not fit one nullable column.
 */

export const emailDraftNotFound = () => new HTTPException(404, { message: "No draft found with given id" });

type ThemeChoice = string | false | null | undefined;

function themeColumns(themeId: ThemeChoice): { theme_mode: EmailDraftThemeMode; theme_id: string | null } {
  if (themeId === false) return { theme_mode: "none", theme_id: null };
  if (typeof themeId === "string") return { theme_mode: "custom", theme_id: themeId.toLowerCase() };
  return { theme_mode: "project_default", theme_id: null };
}

interface DraftRow {
  id: string;
  display_name: string;
  tsx_source: string;
  theme_mode: EmailDraftThemeMode;
  theme_id: string | null;
  sent_at: Date | null;
}

export function emailDraftRead(row: DraftRow): EmailDraftRead {
  const themeId = row.theme_mode === "none" ? false : row.theme_mode === "custom" ? row.theme_id! : undefined;
  return {
    id: row.id,
    display_name: row.display_name,
    tsx_source: row.tsx_source,
    ...(themeId !== undefined ? { theme_id: themeId } : {}),
    sent_at_millis: row.sent_at ? row.sent_at.getTime() : null,
  };
}

const COLUMNS = ["id", "display_name", "tsx_source", "theme_mode", "theme_id", "sent_at"] as const;
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Oldest first, as they were written. */
export async function listEmailDrafts(db: Db, projectId: string): Promise<EmailDraftRead[]> {
  const rows = await db.selectFrom("email_drafts").select(COLUMNS).where("project_id", "=", projectId).orderBy("created_at").orderBy("id").execute();
  return rows.map(emailDraftRead);
}

/** The project's draft, or undefined (each route words its own refusal). */
export async function findEmailDraft(db: Db, projectId: string, id: string): Promise<EmailDraftRead | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("email_drafts").select(COLUMNS).where("project_id", "=", projectId).where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row ? emailDraftRead(row) : undefined;
}

export async function readEmailDraft(db: Db, projectId: string, id: string): Promise<EmailDraftRead> {
  const draft = await findEmailDraft(db, projectId, id);
  if (!draft) throw emailDraftNotFound();
  return draft;
}

export async function createEmailDraft(
  db: Db,
  projectId: string,
  input: { displayName: string; themeId?: string | false | null; tsxSource?: string },
): Promise<{ id: string }> {
  const row = await db
    .insertInto("email_drafts")
    .values({ project_id: projectId, display_name: input.displayName, tsx_source: input.tsxSource ?? NEW_EMAIL_DRAFT_SOURCE, ...themeColumns(input.themeId) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

export interface EmailDraftUpdate {
  displayName?: string;
  /** A theme, `false` for none, null for the selected theme; absent: unchanged. */
  themeId?: string | false | null;
  tsxSource?: string;
  /** When it was sent; null marks it unsent again. */
  sentAt?: Date | null;
}

export async function updateEmailDraft(db: Db, projectId: string, id: string, update: EmailDraftUpdate): Promise<EmailDraftRead> {
  if (!isUuid(id)) throw emailDraftNotFound();
  const row = await db
    .updateTable("email_drafts")
    .set({
      ...(update.displayName !== undefined ? { display_name: update.displayName } : {}),
      ...(update.tsxSource !== undefined ? { tsx_source: update.tsxSource } : {}),
      ...(update.themeId !== undefined ? themeColumns(update.themeId) : {}),
      ...(update.sentAt !== undefined ? { sent_at: update.sentAt } : {}),
      updated_at: new Date(),
    })
    .where("project_id", "=", projectId)
    .where("id", "=", id.toLowerCase())
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw emailDraftNotFound();
  return emailDraftRead(row);
}

export async function deleteEmailDraft(db: Db, projectId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw emailDraftNotFound();
  const result = await db.deleteFrom("email_drafts").where("project_id", "=", projectId).where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw emailDraftNotFound();
}

/** After a theme is deleted, drafts that named it use the project's selected theme. */
export async function releaseDraftsOfTheme(db: Db, projectId: string, themeId: string): Promise<void> {
  await db
    .updateTable("email_drafts")
    .set({ theme_mode: "project_default", theme_id: null, updated_at: new Date() })
    .where("project_id", "=", projectId)
    .where("theme_id", "=", themeId)
    .execute();
}
