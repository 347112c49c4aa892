import { z } from "zod";
import { uuid } from "./ids.js";
import { bodyAlternatives, extendedAlternative } from "./body-alternatives.js";
import { emailThemeChoice } from "./email-themes-templates.js";

/**
 * `POST /emails/send-email` (server; SPEC.md §3 "Send-email payload", §7 Emails): `html`, `template_id` (+
 * `variables`) or `draft_id` — the protocol's three shapes, each over the same base — to `user_ids` or
 * `all_users` (exactly one of them: the route checks that, after the project's email server).
 */

const base = {
  user_ids: z.array(uuid).optional(),
  all_users: z.literal(true).optional(),
  subject: z.string().optional(),
  notification_category_name: z.string().optional(),
  /** A theme, `false` for none; absent or null: the template's or draft's own (written HTML: none). */
  theme_id: emailThemeChoice.nullable().optional(),
};

export const sendEmailBody = bodyAlternatives([
  extendedAlternative(base, { html: z.string() }),
  extendedAlternative(base, { template_id: uuid, variables: z.record(z.string(), z.unknown()).optional() }),
  extendedAlternative(base, { draft_id: uuid }),
]);
/** Every field any of the shapes has, for the route. */
export interface SendEmailBody {
  user_ids?: string[];
  all_users?: true;
  subject?: string;
  notification_category_name?: string;
  theme_id?: string | false | null;
  html?: string;
  template_id?: string;
  variables?: Record<string, unknown>;
  draft_id?: string;
}

/** One addressed user: every requested user is listed, sent or not; `user_email` is absent without a primary email. */
export const sendEmailResult = z.strictObject({
  user_id: z.string(),
  user_email: z.string().optional(),
});
export type SendEmailResult = z.infer<typeof sendEmailResult>;

/** The answer of `POST /emails/send-email`. */
export const sendEmailResponse = z.strictObject({ results: z.array(sendEmailResult) });
