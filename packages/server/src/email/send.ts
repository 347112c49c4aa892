import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { AppDeps } from "../http/context.js";
import type { ProjectRow } from "../services/projects.js";
import { resolveDelivery, type EmailDelivery } from "./transport.js";
import { DEFAULT_EMAIL_TEMPLATES, renderTemplate, type TemplateId } from "./templates.js";

export interface EmailMessage {
  to: string;
  template: TemplateId;
  /** The template's variables; `projectDisplayName` is filled in from the project. */
  variables: Record<string, string>;
  userId?: string;
}

/**
 * Renders a default template and delivers it through the project's email server (or to the dev
 * outbox), recording the send in `sent_emails`. A delivery failure never throws: it is logged and
 * recorded, and returned as `error`, so the caller's own work (creating the user…) stands.
 */
export async function sendEmail(deps: AppDeps, project: ProjectRow, message: EmailMessage): Promise<{ id: string; error: string | null }> {
  const template = DEFAULT_EMAIL_TEMPLATES[message.template];
  const rendered = renderTemplate(template, { ...message.variables, projectDisplayName: project.display_name });
  let delivery: EmailDelivery;
  try {
    delivery = resolveDelivery(deps.env, renderProjectConfig(project.config_override as ConfigObject).emails.server);
  } catch (err) {
    delivery = { kind: "misconfigured", error: errorText(err), senderEmail: deps.env.emailSender, senderConfig: { type: "shared" } };
  }
  const log = deps.log.child({ projectId: project.id, template: template.id });

  let error: string | null = null;
  if (delivery.kind === "misconfigured") {
    error = delivery.error;
  } else if (delivery.kind === "smtp") {
    try {
      await delivery.transporter.sendMail({
        from: { name: project.display_name, address: delivery.senderEmail },
        to: message.to,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
      });
    } catch (err) {
      error = errorText(err);
    } finally {
      delivery.transporter.close();
    }
  }

  const row = await deps.db
    .insertInto("sent_emails")
    .values({
      project_id: project.id,
      user_id: message.userId ?? null,
      template: template.id,
      recipient: message.to,
      subject: rendered.subject,
      // Delivered mail is not kept: its links and codes would sit in the database as plain text.
      html: delivery.kind === "outbox" ? rendered.html : null,
      text: delivery.kind === "outbox" ? rendered.text : null,
      sender_config: JSON.stringify(delivery.senderConfig),
      delivery: delivery.kind === "outbox" ? "outbox" : "smtp",
      error,
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  if (delivery.kind === "outbox") {
    // No SMTP server: the one line a developer needs to go on with the flow.
    const code = rendered.code ? ` code ${rendered.code}` : "";
    log.info({ emailId: row.id, to: message.to, link: rendered.link, code: rendered.code }, `dev outbox: mail to ${message.to} "${rendered.subject}"${code} ${rendered.link}`);
  } else if (error) {
    log.warn({ emailId: row.id, to: message.to, error }, "email delivery failed");
  } else {
    log.info({ emailId: row.id, to: message.to }, "email sent");
  }
  return { id: row.id, error };
}

/** The text of a delivery failure as SMTP (or the network) reported it. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
