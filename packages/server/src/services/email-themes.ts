import { HTTPException } from "hono/http-exception";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";
import type { ConfigOverride, ProjectConfig } from "../config/project-config.js";
import { hasOwn } from "../config/config-format.js";
import { BUILT_IN_EMAIL_THEMES, LIGHT_EMAIL_THEME_SOURCE } from "../email/built-in-themes.js";
import { editEmailConfig, emailConfigOf } from "./email-config-edits.js";

/**
 * `/internal/email-themes` (issue 19): the project's e-mail themes, entries of `emails.themes` in its config,
 * the two built-in ones included. Unknown ids answer the protocol's plain 404.
 */

type EmailsConfig = ProjectConfig["emails"];

export const emailThemeNotFound = () => new HTTPException(404, { message: "No theme found with given id" });

/** Config keys are lower-case UUIDs; a request may spell one in capitals. */
const themeKey = (id: string) => id.toLowerCase();

export function findEmailTheme(emails: EmailsConfig, id: string): EmailsConfig["themes"][string] | undefined {
  return hasOwn(emails.themes, themeKey(id)) ? emails.themes[themeKey(id)] : undefined;
}

/** A theme a template or draft may name: one the project has, or `false` for none; null is the selected theme. */
export function checkEmailThemeChoice(emails: EmailsConfig, themeId: string | false | null | undefined): void {
  if (typeof themeId === "string" && !findEmailTheme(emails, themeId)) throw new HTTPException(400, { message: "No theme found with given id" });
}

export function listEmailThemes(project: ProjectRow): { id: string; display_name: string }[] {
  return Object.entries(emailConfigOf(project).themes).map(([id, theme]) => ({ id, display_name: theme.displayName }));
}

export function readEmailTheme(project: ProjectRow, id: string): { display_name: string; tsx_source: string } {
  const theme = findEmailTheme(emailConfigOf(project), id);
  if (!theme) throw emailThemeNotFound();
  return { display_name: theme.displayName, tsx_source: theme.tsxSource };
}

/** A new theme starts from "Default Light". */
export async function createEmailTheme(db: Db, projectId: string, displayName: string): Promise<{ id: string }> {
  const id = crypto.randomUUID();
  await editEmailConfig(db, projectId, () => ({
    override: { [`emails.themes.${id}`]: { displayName, tsxSource: LIGHT_EMAIL_THEME_SOURCE } },
    result: undefined,
  }));
  return { id };
}

export async function updateEmailTheme(
  db: Db,
  projectId: string,
  id: string,
  update: { displayName?: string; tsxSource?: string },
): Promise<{ display_name: string }> {
  const key = themeKey(id);
  return editEmailConfig(db, projectId, (emails) => {
    const theme = findEmailTheme(emails, key);
    if (!theme) throw emailThemeNotFound();
    const override: ConfigOverride = {};
    if (update.displayName !== undefined) override[`emails.themes.${key}.displayName`] = update.displayName;
    if (update.tsxSource !== undefined) override[`emails.themes.${key}.tsxSource`] = update.tsxSource;
    return { override, result: { display_name: update.displayName ?? theme.displayName } };
  });
}

/**
 * Deletes one of the project's own themes; the built-in ones stay. What used the theme falls back to the
 * project's selected theme, and a project whose selected theme it was falls back to "Default Light". Returns
 * the id as stored, for the caller to release drafts that named it.
 */
export async function deleteEmailTheme(db: Db, projectId: string, id: string): Promise<string> {
  const key = themeKey(id);
  return editEmailConfig(db, projectId, (emails) => {
    if (!findEmailTheme(emails, key)) throw emailThemeNotFound();
    if (hasOwn(BUILT_IN_EMAIL_THEMES, key)) throw new HTTPException(400, { message: "A built-in email theme cannot be deleted" });
    const override: ConfigOverride = { [`emails.themes.${key}`]: null };
    if (emails.selectedThemeId === key) override["emails.selectedThemeId"] = null;
    for (const [templateId, template] of Object.entries(emails.templates)) {
      if (template.themeId === key) override[`emails.templates.${templateId}.themeId`] = null;
    }
    return { override, result: key };
  });
}
