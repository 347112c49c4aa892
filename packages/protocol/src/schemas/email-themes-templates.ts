import { z } from "zod";
import { isUuid, uuid } from "./ids.js";
import { bodyAlternatives } from "./body-alternatives.js";
import { newerField } from "./dialect-fields.js";
import { MAX_DISPLAY_NAME_LENGTH } from "./project-config.js";

/**
 * Emails as code (SPEC.md §3 "Email template", "Email theme"; issue 19): the admin's `/internal/email-themes`
 * and `/internal/email-templates`, kept in the project's config (`emails.themes`, `emails.templates`, with the
 * built-in ones merged in), and `POST /emails/render-email`, the preview. Drafts are in email-drafts.ts.
 */

/** Theme and template sources are TSX modules; this bound keeps one project's config a reasonable size. */
export const MAX_EMAIL_TSX_SOURCE_LENGTH = 200_000;
export const emailTsxSource = z.string().max(MAX_EMAIL_TSX_SOURCE_LENGTH);
const emailDisplayName = z.string().min(1).max(MAX_DISPLAY_NAME_LENGTH);

/**
 * A theme a template or draft uses: a theme id, or `false` for none (the content alone). Anything else is
 * `<path> is invalid`, the protocol's whole message for this field (its validator tests the value as one).
 */
export const emailThemeChoice = z
  .custom<string | false>((value) => value === false || (typeof value === "string" && isUuid(value)), { error: "is invalid" })
  .meta({ anyOf: [{ type: "string", format: "uuid" }, { const: false }] });

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
 * `POST /emails/render-email` (admin): a template (by id or source) in a theme (by id — `false` for none, absent
 * or null for the template's own — or by source): the protocol's four shapes, tried in order. `variables` is
 * Latchkey's addition, over the template's preview variables.
 */
const previewVariables = z.record(z.string(), z.unknown()).optional();
export const renderEmailBody = bodyAlternatives([
  z.strictObject({ template_id: uuid, theme_id: emailThemeChoice.nullable().optional(), variables: previewVariables }),
  z.strictObject({ template_id: uuid, theme_tsx_source: emailTsxSource, variables: previewVariables }),
  z.strictObject({ template_tsx_source: emailTsxSource, theme_id: emailThemeChoice.nullable().optional(), variables: previewVariables }),
  z.strictObject({ template_tsx_source: emailTsxSource, theme_tsx_source: emailTsxSource, variables: previewVariables }),
]);
/** Every field any of the shapes has, for the route. */
export interface RenderEmailBody {
  template_id?: string;
  template_tsx_source?: string;
  theme_id?: string | false | null;
  theme_tsx_source?: string;
  variables?: Record<string, unknown>;
}

/**
 * The rendered mail. 2.8.41 gets `subject` and `notification_category` only when the template sets them; 2.8.108
 * keeps what it was answered before: the plain-text part, and `subject` always ("" when there is none).
 */
export const renderEmailResponse = z.strictObject({
  html: z.string(),
  text: newerField(z.string().optional()),
  subject: z.string().optional(),
  /** The category the template declares (`Transactional`, `Marketing`), when it declares one. */
  notification_category: z.string().optional(),
});
