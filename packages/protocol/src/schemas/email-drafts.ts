import { z } from "zod";
import { uuid } from "./ids.js";
import { emailCreatedResponse, emailThemeChoice, emailTsxSource } from "./email-themes-templates.js";
import { MAX_DISPLAY_NAME_LENGTH } from "./project-config.js";

/**
 * `/internal/email-drafts` (SPEC.md §3 "Email draft"; issue 19): one-off mails an admin writes in TSX and sends
 * to many users with `POST /emails/send-email` `draft_id`, which marks the draft sent.
 */

const draftDisplayName = z.string().min(1).max(MAX_DISPLAY_NAME_LENGTH);

export const emailDraftIdParams = z.object({ id: uuid });

/** `theme_id`: a theme, `false` for none, absent for the project's selected theme; `sent_at_millis` null until sent. */
export const emailDraftRead = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  theme_id: z.union([z.string(), z.literal(false)]).optional(),
  sent_at_millis: z.number().nullable(),
});
export type EmailDraftRead = z.infer<typeof emailDraftRead>;
export const emailDraftListResponse = z.strictObject({ drafts: z.array(emailDraftRead) });

/** `POST /internal/email-drafts`: without `tsx_source` the draft starts from a short example. */
export const emailDraftCreateBody = z.strictObject({
  display_name: draftDisplayName,
  theme_id: emailThemeChoice.nullable().optional(),
  tsx_source: emailTsxSource.optional(),
});
export const emailDraftCreated = emailCreatedResponse;

/** `PATCH /internal/email-drafts/{id}`: `theme_id` null returns to the selected theme; `sent_at_millis` null re-opens it. */
export const emailDraftUpdateBody = z.strictObject({
  display_name: draftDisplayName.optional(),
  theme_id: emailThemeChoice.nullable().optional(),
  tsx_source: emailTsxSource.optional(),
  sent_at_millis: z.number().int().nonnegative().nullable().optional(),
});
/** The answer of the draft PATCH, as the protocol has it: the client reads the draft again when it needs it. */
export const emailDraftUpdated = z.strictObject({ ok: z.literal("ok") });
