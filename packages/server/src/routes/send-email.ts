import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { TRANSACTIONAL_CATEGORY, sendEmailBody, sendEmailResponse, type SendEmailResult } from "@latchkey/protocol/schemas";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { sendNotificationMail, type NotificationRecipient } from "../email/notification-mail.js";
import { defineRoute } from "../http/route.js";
import { categoryByName } from "../services/notification-preferences.js";
import type { Db } from "../db/connect.js";

/**
 * `POST /emails/send-email` (server): mail written by the caller (`html`, `subject`) to `user_ids` or
 * `all_users`, in a notification category (`notification_category_name`, Transactional by default).
 * Answers `{ results: [{ user_id, user_email }] }` listing every addressed user, whether or not they were
 * sent the mail (no primary email, or the category turned off). Checks run in the protocol's order.
 *
 * `template_id` and `draft_id` need editable templates and drafts, which this server does not have yet:
 * they are refused with a 400 that says so, rather than answered as if a template were missing.
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
    errors: [KnownErrors.RequiresCustomEmailServer, KnownErrors.UserIdDoesNotExist],
    handler: async (c, { auth, body }) => {
      const project = auth.project;
      // As in the protocol: bulk mail goes only through a project's own SMTP server, never the shared sender.
      if (renderProjectConfig(project.config_override as ConfigObject).emails.server.isShared) throw new KnownErrors.RequiresCustomEmailServer();
      if (body.html === undefined && !body.template_id && !body.draft_id) {
        throw new KnownErrors.SchemaError("Either html or template_id or draft_id must be provided");
      }
      if (body.html !== undefined && (body.template_id || body.variables)) {
        throw new KnownErrors.SchemaError("If html is provided, cannot provide template_id or variables");
      }
      if ((body.user_ids === undefined) === (body.all_users === undefined)) {
        throw new KnownErrors.SchemaError("Exactly one of user_ids or all_users must be provided");
      }
      if (body.template_id || body.draft_id) {
        throw new HTTPException(400, {
          message: "Sending with template_id or draft_id is not supported by this server yet: email templates and drafts come in a later release. Send html (with a subject) instead.",
        });
      }
      if (typeof body.theme_id === "string") {
        throw new HTTPException(400, { message: "Email themes are not supported by this server yet: leave theme_id out (or set it to null or false)." });
      }
      const categoryName = body.notification_category_name ?? TRANSACTIONAL_CATEGORY.name;
      const category = categoryByName(categoryName);
      if (!category) throw new HTTPException(404, { message: "Notification category not found" });

      const deps = c.get("deps");
      const recipients = await findRecipients(deps.db, project.id, body.user_ids);
      await sendNotificationMail(deps, project, recipients, { category, subject: body.subject ?? "", html: body.html! });
      const results: SendEmailResult[] = recipients.map((r) => (r.email ? { user_id: r.userId, user_email: r.email } : { user_id: r.userId }));
      return { results };
    },
  }),
];

/**
 * The addressed users with their primary emails, in the order asked (every user of the project, oldest
 * first, for `all_users`). USER_ID_DOES_NOT_EXIST names the first requested id that is not a user here.
 */
async function findRecipients(db: Db, projectId: string, userIds: string[] | undefined): Promise<NotificationRecipient[]> {
  const wanted = userIds ? [...new Set(userIds.map((id) => id.toLowerCase()))] : undefined;
  if (wanted?.length === 0) return [];
  let query = db
    .selectFrom("users")
    .leftJoin("contact_channels", (join) =>
      join.onRef("contact_channels.user_id", "=", "users.id").on("contact_channels.is_primary", "=", true).on("contact_channels.type", "=", "email"),
    )
    .select(["users.id", "contact_channels.value as email"])
    .where("users.project_id", "=", projectId);
  if (wanted) query = query.where("users.id", "in", wanted);
  const rows = await query.orderBy("users.created_at").orderBy("users.id").execute();
  const found = new Map(rows.map((row) => [row.id, row.email ?? null]));
  if (!wanted) return rows.map((row) => ({ userId: row.id, email: row.email ?? null }));
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw new KnownErrors.UserIdDoesNotExist(missing);
  return wanted.map((id) => ({ userId: id, email: found.get(id)! }));
}
