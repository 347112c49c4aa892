import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { ProjectRow } from "../db/rows.js";
import { BUILT_IN_EMAIL_TEMPLATES } from "../email/built-in-templates.js";
import { DEFAULT_EMAIL_TEMPLATES, type TemplateId } from "../email/templates.js";
import { renderEmail } from "../email-rendering/index.js";
import { findEmailTemplate } from "./email-templates.js";
import { themeSourceFor } from "./email-preview.js";

/**
 * The auth flows' mail (verification, reset, magic link / code, invitations) rendered from the project's TSX
 * template for it (`/internal/email-templates`: the built-in one unless the admin changed it) in its theme, in
 * the sandbox (email-rendering/). Throws EMAIL_RENDERING_ERROR when the project's code does not render; the
 * sender records that as the send's failure.
 */

export interface TransactionalMail {
  subject: string;
  html: string;
  text: string;
}

export async function renderTransactionalEmail(
  project: ProjectRow,
  templateId: TemplateId,
  variables: Record<string, string>,
  userDisplayName: string | null,
): Promise<TransactionalMail> {
  const emails = renderProjectConfig(project.config_override as ConfigObject).emails;
  const defaults = DEFAULT_EMAIL_TEMPLATES[templateId];
  // The config lists the built-in templates unless the project replaced them.
  const template = findEmailTemplate(emails, defaults.protocolTemplateId) ?? { ...BUILT_IN_EMAIL_TEMPLATES[defaults.protocolTemplateId]!, themeId: undefined };
  const themeSource = themeSourceFor(emails, template.themeId);
  const rendered = await renderEmail({
    themeSource,
    templateSource: template.tsxSource,
    variables: Object.fromEntries([
      ...defaults.variables.map((name) => [name, variables[name]]),
      ...(defaults.optionalVariables ?? []).filter((name) => variables[name] !== undefined).map((name) => [name, variables[name]]),
    ]),
    user: { displayName: userDisplayName },
    project: { displayName: project.display_name },
    projectId: project.id,
  });
  return { subject: rendered.subject ?? defaults.displayName, html: rendered.html, text: rendered.text };
}
