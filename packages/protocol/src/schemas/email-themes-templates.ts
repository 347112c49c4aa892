import { z } from "zod";
import { MAX_DISPLAY_NAME_LENGTH } from "./project-config.js";

/**
 * Emails as code (SPEC.md §3 "Email template", "Email theme"; issue 19): the admin's `/internal/email-themes`
 * and `/internal/email-templates`, kept in the project's config (`emails.themes`, `emails.templates`, with the
 * built-in ones merged in), and `POST /emails/render-email`, the preview. Drafts are in email-drafts.ts.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = z.string().regex(UUID, { message: "must be a valid UUID" });

/** Theme and template sources are TSX modules; this bound keeps one project's config a reasonable size. */
export const MAX_EMAIL_TSX_SOURCE_LENGTH = 200_000;
export const emailTsxSource = z.string().max(MAX_EMAIL_TSX_SOURCE_LENGTH);
const emailDisplayName = z.string().min(1).max(MAX_DISPLAY_NAME_LENGTH);

/** A theme a template or draft uses: a theme id, or `false` for none (the content alone). */
export const emailThemeChoice = z.union([uuid, z.literal(false)]);

/** `/{id}` of a theme or template. */
export const emailThemeIdParams = z.object({ id: uuid });
export const emailTemplateIdParams = z.object({ id: uuid });

export const emailThemeListItem = z.strictObject({ id: z.string(), display_name: z.string() });
/** `GET /internal/email-themes`: the built-in themes and the project's own. */
export const emailThemeListResponse = z.strictObject({ themes: z.array(emailThemeListItem) });

/** `POST /internal/email-themes`: a new theme starts from the "Default Light" source. */
export const emailThemeCreateBody = z.strictObject({ display_name: emailDisplayName });
export const emailCreatedResponse = z.strictObject({ id: z.string() });

/** `GET /internal/email-themes/{id}`. */
export const emailThemeRead = z.strictObject({ display_name: z.string(), tsx_source: z.string() });

/** `PATCH /internal/email-themes/{id}`: the protocol's client sends `tsx_source` only. */
export const emailThemeUpdateBody = z.strictObject({
  display_name: emailDisplayName.optional(),
  tsx_source: emailTsxSource.optional(),
});
export const emailThemeUpdated = z.strictObject({ display_name: z.string() });

/**
 * A template as `/internal/email-templates` lists it. `theme_id`: a theme, `false` for none, absent for the
 * project's selected theme.
 */
export const emailTemplateRead = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  theme_id: z.union([z.string(), z.literal(false)]).optional(),
});
export type EmailTemplateRead = z.infer<typeof emailTemplateRead>;
export const emailTemplateListResponse = z.strictObject({ templates: z.array(emailTemplateRead) });

/** `POST /internal/email-templates`. */
export const emailTemplateCreateBody = z.strictObject({ display_name: emailDisplayName });

/**
 * `PATCH /internal/email-templates/{id}`: `theme_id` null returns the template to the project's selected theme;
 * absent leaves it as it is. The answer is the template rendered with its preview variables.
 */
export const emailTemplateUpdateBody = z.strictObject({
  display_name: emailDisplayName.optional(),
  tsx_source: emailTsxSource.optional(),
  theme_id: emailThemeChoice.nullable().optional(),
});
export const emailTemplateUpdated = z.strictObject({ rendered_html: z.string() });

/**
 * `POST /emails/render-email` (admin): a theme (by id, `false` for none, absent for the selected one, or inline
 * source) around a template (exactly one of `template_id` and `template_tsx_source`).
 */
export const renderEmailBody = z.strictObject({
  theme_id: emailThemeChoice.nullable().optional(),
  theme_tsx_source: emailTsxSource.optional(),
  template_id: uuid.optional(),
  template_tsx_source: emailTsxSource.optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
});
export type RenderEmailBody = z.infer<typeof renderEmailBody>;
export const renderEmailResponse = z.strictObject({
  html: z.string(),
  text: z.string(),
  subject: z.string(),
  /** The category the template declares (`Transactional`, `Marketing`), when it declares one. */
  notification_category: z.string().optional(),
});
