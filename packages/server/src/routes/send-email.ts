import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { TRANSACTIONAL_CATEGORY, sendEmailBody, sendEmailResponse, type SendEmailBody, type SendEmailResult } from "@latchkey/protocol/schemas";
import { sendNotificationMail, type NotificationRecipient } from "../email/notification-mail.js";
import { defineRoute } from "../http/route.js";
import { categoryByName } from "../services/notification-preferences.js";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";
import { renderEmail } from "../email-rendering/index.js";
import { emailConfigOf } from "../services/email-config-edits.js";
import { findEmailDraft, updateEmailDraft } from "../services/email-drafts.js";
import { themeSourceFor } from "../services/email-preview.js";
import { findEmailTemplate } from "../services/email-templates.js";

/**
 * `POST /emails/send-email` (server): mail written by the caller (`html`, `subject`) to `user_ids` or
 * `all_users`, in a notification category (`notification_category_name`, Transactional by default).
 * Answers `{ results: [{ user_id, user_email }] }` listing every addressed user, whether or not they were
 * sent the mail (no primary email, or the category turned off). Checks run in the protocol's order.
 *
 * With `template_id` (and `variables`) or `draft_id`, the project's TSX is rendered per user in the sandbox
 * (email-rendering/), in `theme_id` (else the template's or draft's own theme); its `<Subject>` and
 * `<NotificationCategory>` apply unless `subject` and `notification_category_name` are given, and a sent draft
 * is marked sent. Code that does not render is an EMAIL_RENDERING_ERROR before any mail goes out.
 */
export const sendEmailRoutes = [
  defineRoute({
    method: "post",
    path: "/emails/send-email",
    summary: "Send an email to users",
    description:
      "Sends `html` with a `subject` to `user_ids` or `all_users` through the project's own email server, in a notification " +
      "category (Transactional by default); users who turned the category off are listed but not sent the mail.",
    tags: ["Emails"],
    access: ["server", "admin"],
    request: { body: sendEmailBody },
    response: { description: "Every addressed user, with the address the mail went to.", schema: sendEmailResponse },
    errors: [KnownErrors.RequiresCustomEmailServer, KnownErrors.UserIdDoesNotExist, KnownErrors.EmailRenderingError],
    handler: async (c, { auth, body: parsed }) => {
      const body = parsed as SendEmailBody;
      const project = auth.project;
      // The protocol's order: the project's email server (bulk mail never goes through the shared sender), the
      // recipients, the category named, then the template or draft.
      if (emailConfigOf(project).server.isShared) throw new KnownErrors.RequiresCustomEmailServer();
      if ((body.user_ids === undefined) === (body.all_users === undefined)) {
        throw new KnownErrors.SchemaError("Exactly one of user_ids or all_users must be provided");
      }
      if (body.notification_category_name !== undefined && !categoryByName(body.notification_category_name)) throw categoryNotFound();
      const deps = c.get("deps");
      const sources = await mailSources(deps.db, project, body);
      const recipients = await findRecipients(deps.db, project.id, body.user_ids);
      const render = (recipient: NotificationRecipient | undefined, unsubscribeLink?: string) =>
        renderEmail({
          ...sources!,
          variables: body.variables ?? {},
          user: { displayName: recipient?.displayName ?? null },
          project: { displayName: project.display_name },
          unsubscribeLink: unsubscribeLink ?? null,
          projectId: project.id,
        });
      // Rendered once up front: broken code is refused before any mail goes out, and the mail names its category.
      const probe = sources ? await render(recipients.find((r) => r.email) ?? recipients[0]) : undefined;
      const categoryName = body.notification_category_name ?? probe?.notificationCategory ?? TRANSACTIONAL_CATEGORY.name;
      const category = categoryByName(categoryName);
      if (!category) throw categoryNotFound();

      if (!sources) {
        await sendNotificationMail(deps, project, recipients, { category, subject: body.subject ?? "", html: body.html! });
      } else {
        await sendNotificationMail(deps, project, recipients, {
          category,
          render: async (recipient, unsubscribeLink) => {
            const mail = await render(recipient, unsubscribeLink);
            return { subject: body.subject ?? mail.subject ?? "", html: mail.html, text: mail.text };
          },
        });
        if (body.draft_id) await updateEmailDraft(deps.db, project.id, body.draft_id, { sentAt: new Date() });
      }
      const results: SendEmailResult[] = recipients.map((r) => (r.email ? { user_id: r.userId, user_email: r.email } : { user_id: r.userId }));
      return { results };
    },
  }),
];

/**
 * The addressed users with their primary emails, in the order asked (every user of the project, oldest
 * first, for `all_users`). USER_ID_DOES_NOT_EXIST names the first requested id that is not a user here.
 */
/** A category name the protocol does not have (in the request, or declared by the template). */
const categoryNotFound = () => new HTTPException(400, { message: "Notification category not found with given name" });

async function findRecipients(db: Db, projectId: string, userIds: string[] | undefined): Promise<NotificationRecipient[]> {
  const wanted = userIds ? [...new Set(userIds.map((id) => id.toLowerCase()))] : undefined;
  if (wanted?.length === 0) return [];
  let query = db
    .selectFrom("users")
    .leftJoin("contact_channels", (join) =>
      join.onRef("contact_channels.user_id", "=", "users.id").on("contact_channels.is_primary", "=", true).on("contact_channels.type", "=", "email"),
    )
    .select(["users.id", "users.display_name", "contact_channels.value as email"])
    .where("users.project_id", "=", projectId);
  if (wanted) query = query.where("users.id", "in", wanted);
  const rows = await query.orderBy("users.created_at").orderBy("users.id").execute();
  const recipients = rows.map((row) => ({ userId: row.id, email: row.email ?? null, displayName: row.display_name }));
  if (!wanted) return recipients;
  const found = new Map(recipients.map((recipient) => [recipient.userId, recipient]));
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw new KnownErrors.UserIdDoesNotExist(missing);
  return wanted.map((id) => found.get(id)!);
}

/**
 * The TSX to render: the template's or draft's, in `theme_id` when given (false: none), else in its own theme
 * (the selected theme unless it names one). HTML with a theme id is wrapped in that theme. Undefined for plain
 * HTML, sent as written.
 */
async function mailSources(db: Db, project: ProjectRow, body: SendEmailBody): Promise<{ templateSource: string; themeSource: string | null } | undefined> {
  const emails = emailConfigOf(project);
  const themeFor = (own: string | false | null | undefined) => themeSourceFor(emails, body.theme_id !== undefined ? body.theme_id : own);
  if (body.template_id) {
    const template = findEmailTemplate(emails, body.template_id);
    if (!template) throw new HTTPException(400, { message: "No template found with given template_id" });
    return { templateSource: template.tsxSource, themeSource: themeFor(template.themeId) };
  }
  if (body.draft_id) {
    const draft = await findEmailDraft(db, project.id, body.draft_id);
    if (!draft) throw new HTTPException(400, { message: "No draft found with given draft_id" });
    return { templateSource: draft.tsx_source, themeSource: themeFor(draft.theme_id) };
  }
  if (typeof body.theme_id === "string") return { templateSource: htmlTemplateSource(body.html!), themeSource: themeFor(undefined) };
  return undefined;
}

/** A template that shows the caller's HTML as it is, so a theme can wrap it. */
function htmlTemplateSource(html: string): string {
  return `export function EmailTemplate() {\n  return <div dangerouslySetInnerHTML={{ __html: ${JSON.stringify(html)} }} />;\n}\n`;
}
