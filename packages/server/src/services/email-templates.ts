import { HTTPException } from "hono/http-exception";
import type { EmailTemplateRead } from "@latchkey/protocol/schemas";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";
import type { ConfigOverride, ProjectConfig } from "../config/project-config.js";
import { hasOwn } from "../config/config-format.js";
import { BUILT_IN_EMAIL_TEMPLATES, NEW_EMAIL_TEMPLATE_SOURCE } from "../email/built-in-templates.js";
import { editEmailConfig, emailConfigOf } from "./email-config-edits.js";
import { checkEmailThemeChoice } from "./email-themes.js";

/**
 * `/internal/email-templates` (issue 19): the project's e-mail templates, entries of `emails.templates` in its
 * config; the built-in ones (one per transactional mail, with the protocol's ids) are listed unless the project
 * overrides them, and then the override wins.
 */

type EmailsConfig = ProjectConfig["emails"];
type TemplateConfig = EmailsConfig["templates"][string];

export const emailTemplateNotFound = () => new HTTPException(404, { message: "No template found with given id" });

const templateKey = (id: string) => id.toLowerCase();

export function findEmailTemplate(emails: EmailsConfig, id: string): TemplateConfig | undefined {
  return hasOwn(emails.templates, templateKey(id)) ? emails.templates[templateKey(id)] : undefined;
}

function templateRead(id: string, template: TemplateConfig): EmailTemplateRead {
  return {
    id,
    display_name: template.displayName,
    tsx_source: template.tsxSource,
    ...(template.themeId !== undefined ? { theme_id: template.themeId } : {}),
  };
}

export function listEmailTemplates(project: ProjectRow): EmailTemplateRead[] {
  return Object.entries(emailConfigOf(project).templates).map(([id, template]) => templateRead(id, template));
}

export function readEmailTemplate(project: ProjectRow, id: string): EmailTemplateRead {
  const template = findEmailTemplate(emailConfigOf(project), id);
  if (!template) throw emailTemplateNotFound();
  return templateRead(templateKey(id), template);
}

export async function createEmailTemplate(db: Db, projectId: string, displayName: string): Promise<{ id: string }> {
  const id = crypto.randomUUID();
  await editEmailConfig(db, projectId, () => ({
    override: { [`emails.templates.${id}`]: { displayName, tsxSource: NEW_EMAIL_TEMPLATE_SOURCE } },
    result: undefined,
  }));
  return { id };
}

export interface EmailTemplateUpdate {
  displayName?: string;
  tsxSource?: string;
  /** A theme, `false` for none, null for the project's selected theme; absent: unchanged. */
  themeId?: string | false | null;
}

/**
 * The template as `update` would leave it (theme `undefined`: the project's selected theme). Throws the 404 for
 * an unknown template and the 400 for an unknown theme. Pure, so a route can render the result before writing.
 */
export function planEmailTemplateUpdate(emails: EmailsConfig, id: string, update: EmailTemplateUpdate): TemplateConfig {
  const current = findEmailTemplate(emails, id);
  if (!current) throw emailTemplateNotFound();
  checkEmailThemeChoice(emails, update.themeId);
  const themeId = update.themeId === undefined ? current.themeId : update.themeId === null ? undefined : normalizedThemeId(update.themeId);
  return {
    displayName: update.displayName ?? current.displayName,
    tsxSource: update.tsxSource ?? current.tsxSource,
    ...(themeId !== undefined ? { themeId } : {}),
  };
}

/** Changes a template (a built-in one too: the change overrides its entry), checked again on the locked row. */
export async function updateEmailTemplate(db: Db, projectId: string, id: string, update: EmailTemplateUpdate): Promise<void> {
  const key = templateKey(id);
  await editEmailConfig(db, projectId, (emails) => {
    const next = planEmailTemplateUpdate(emails, key, update);
    const override: ConfigOverride = {};
    if (update.displayName !== undefined) override[`emails.templates.${key}.displayName`] = update.displayName;
    if (update.tsxSource !== undefined) override[`emails.templates.${key}.tsxSource`] = update.tsxSource;
    if (update.themeId !== undefined) override[`emails.templates.${key}.themeId`] = next.themeId ?? null;
    return { override, result: undefined };
  });
}

/**
 * Deletes one of the project's own templates (an addition of ours: the reference has no such route). The
 * built-in ones stay, since the server sends its transactional mails with them; nothing else names a template,
 * so nothing has to fall back.
 */
export async function deleteEmailTemplate(db: Db, projectId: string, id: string): Promise<void> {
  const key = templateKey(id);
  await editEmailConfig(db, projectId, (emails) => {
    if (!findEmailTemplate(emails, key)) throw emailTemplateNotFound();
    if (hasOwn(BUILT_IN_EMAIL_TEMPLATES, key)) throw new HTTPException(400, { message: "A built-in email template cannot be deleted" });
    return { override: { [`emails.templates.${key}`]: null }, result: undefined };
  });
}

const normalizedThemeId = (themeId: string | false): string | false => (themeId === false ? false : themeId.toLowerCase());
