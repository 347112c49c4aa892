import type { ProjectRow } from "../db/rows.js";
import { DEFAULT_EMAIL_THEME_ID, type ProjectConfig } from "../config/project-config.js";
import { NEW_EMAIL_TEMPLATE_SOURCE } from "../email/built-in-templates.js";
import { renderEmail, type RenderedEmail } from "../email-rendering/index.js";
import { checkEmailThemeChoice, findEmailTheme } from "./email-themes.js";

/**
 * Previews for the admin's editor (issue 19): a theme around a template, rendered in the sandbox with the
 * template's `PreviewVariables` (and any variables given) for a sample user. Rendering failures are
 * EMAIL_RENDERING_ERROR (400) with the compiler's or the render's message.
 */

type EmailsConfig = ProjectConfig["emails"];

/** Who a preview is addressed to. */
const PREVIEW_USER = { displayName: "John Doe" };

/**
 * The theme source a mail on `themeId` is wrapped in: none for `false`; the selected theme for null or absent.
 * An id the project does not have is a 400, as when a template or draft names one.
 */
export function themeSourceFor(emails: EmailsConfig, themeId: string | false | null | undefined): string | null {
  if (themeId === false) return null;
  checkEmailThemeChoice(emails, themeId);
  if (typeof themeId === "string") return findEmailTheme(emails, themeId)!.tsxSource;
  return (findEmailTheme(emails, emails.selectedThemeId) ?? findEmailTheme(emails, DEFAULT_EMAIL_THEME_ID))?.tsxSource ?? null;
}

export async function renderEmailPreview(
  project: ProjectRow,
  sources: { themeSource: string | null; templateSource: string; variables?: Record<string, unknown> },
): Promise<RenderedEmail> {
  return renderEmail({
    ...sources,
    user: PREVIEW_USER,
    project: { displayName: project.display_name },
    previewMode: true,
    projectId: project.id,
  });
}

/** A theme is saved only if it renders: around a short sample template, as the protocol's reference checks it. */
export async function checkThemeRenders(project: ProjectRow, themeSource: string): Promise<void> {
  await renderEmailPreview(project, { themeSource, templateSource: NEW_EMAIL_TEMPLATE_SOURCE });
}
