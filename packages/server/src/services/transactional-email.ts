import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { ProjectRow } from "../db/rows.js";
import { BUILT_IN_EMAIL_TEMPLATES } from "../email/built-in-templates.js";
import { BUILT_IN_EMAIL_THEMES } from "../email/built-in-themes.js";
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

// Latchkey's own built-in sources are trusted code: every project's built-in mail shares one warm sandbox under
// this key (never a project id: those are `internal` or uuids), so a project's first mail costs no library load;
// it still takes its turn among its project's renders. Any source an admin wrote runs in that project's own sandbox.
const BUILT_IN_SANDBOX = "latchkey:built-in";
const builtInSources = new Set([...Object.values(BUILT_IN_EMAIL_TEMPLATES), ...Object.values(BUILT_IN_EMAIL_THEMES)].map((entry) => entry.tsxSource));

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
  const trusted = builtInSources.has(template.tsxSource) && (themeSource === null || builtInSources.has(themeSource));
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
    ...(trusted ? { sandboxKey: BUILT_IN_SANDBOX } : {}),
  });
  return { subject: rendered.subject ?? defaults.displayName, html: rendered.html, text: rendered.text };
}
