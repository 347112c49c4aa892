import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { AppDeps } from "../services/deps.js";
import type { ProjectRow } from "../services/projects.js";
import type { Transporter } from "nodemailer";
import { resolveDelivery, type EmailDelivery } from "./transport.js";
import { renderTransactionalEmail } from "../services/transactional-email.js";
import { DEFAULT_EMAIL_TEMPLATES, renderContentEmail, type RenderedEmail, type TemplateId } from "./templates.js";

/**
 * A mail of the auth flows (verification, reset, magic link, invitations), rendered from the project's TSX
 * template for it (services/transactional-email.ts): all of it transactional, so it never carries an
 * unsubscribe link.
 */
export interface TemplateEmailMessage {
  to: string;
  template: TemplateId;
  /** The template's variables; `userDisplayName` (optional) is the addressed user's name. */
  variables: Record<string, string>;
  userId?: string;
}

/**
 * A mail the caller wrote (`POST /emails/send-email` with `html`). With `unsubscribeLink` (mail of a
 * category the user may turn off) it gets the unsubscribe footer in both parts and the List-Unsubscribe
 * headers (RFC 2369, one-click per RFC 8058). Preferences are checked by the caller (email/notification-mail.ts).
 */
export interface ContentEmailMessage {
  to: string;
  template?: undefined;
  subject: string;
  html: string;
  unsubscribeLink?: string;
  userId?: string;
}

/**
 * A mail already rendered from an admin's TSX (`POST /emails/send-email` with `template_id` or `draft_id`):
 * its theme carries the unsubscribe link; `unsubscribeLink` adds the List-Unsubscribe headers.
 */
export interface RenderedEmailMessage {
  to: string;
  template?: undefined;
  rendered: { subject: string; html: string; text: string };
  unsubscribeLink?: string;
  userId?: string;
}

/** A mail that could not be rendered: recorded as a failed send (and reported by the failed-emails digest). */
export interface UnrenderedEmailMessage {
  to: string;
  template?: undefined;
  renderingError: string;
  subject: string;
  userId?: string;
}

export type EmailMessage = TemplateEmailMessage | ContentEmailMessage | RenderedEmailMessage | UnrenderedEmailMessage;

/**
 * Mail handed over by this process since it started, for `/metrics` (http/metrics.ts). Mail is delivered
 * while its request waits, not queued: `inFlight` is the queue, the SMTP hand-overs under way right now.
 */
export const mailDeliveries = { inFlight: 0, sent: 0, failed: 0, outbox: 0 };

/**
 * Renders a default template (or a caller-written mail) and delivers it through the project's email server (or to the dev
 * outbox), recording the send in `sent_emails`. A delivery failure never throws: it is logged and
 * recorded, and returned as `error`, so the caller's own work (creating the user…) stands.
 */
export async function sendEmail(deps: Pick<AppDeps, "db" | "env" | "log">, project: ProjectRow, message: EmailMessage): Promise<{ id: string; error: string | null }> {
  const templateId = message.template ?? null;
  const { rendered, renderingError } = await renderMessage(project, message);
  const unsubscribeLink = "unsubscribeLink" in message ? message.unsubscribeLink : undefined;
  let delivery: EmailDelivery;
  try {
    delivery = resolveDelivery(deps.env, renderProjectConfig(project.config_override as ConfigObject).emails.server, project.display_name);
  } catch (err) {
    delivery = { kind: "misconfigured", error: errorText(err), senderEmail: deps.env.emailSender, senderConfig: { type: "shared", sender_name: project.display_name } };
  }
  const log = deps.log.child({ projectId: project.id, template: templateId });

  let error: string | null = renderingError;
  if (error) {
    // Nothing to deliver: the failure is recorded below like a refused delivery.
  } else if (delivery.kind === "misconfigured") {
    error = delivery.error;
  } else if (delivery.kind === "smtp") {
    mailDeliveries.inFlight++;
    let transporter: Transporter | undefined;
    try {
      transporter = await delivery.openTransport();
      await transporter.sendMail({
        from: { name: project.display_name, address: delivery.senderEmail },
        to: message.to,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        ...(unsubscribeLink
          ? { list: { unsubscribe: unsubscribeLink }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }
          : {}),
      });
    } catch (err) {
      error = errorText(err);
    } finally {
      mailDeliveries.inFlight--;
      transporter?.close();
    }
  }
  if (error) mailDeliveries.failed++;
  else if (delivery.kind === "outbox") mailDeliveries.outbox++;
  else mailDeliveries.sent++;

  const row = await deps.db
    .insertInto("sent_emails")
    .values({
      project_id: project.id,
      user_id: message.userId ?? null,
      template: templateId,
      recipient: message.to,
      subject: rendered.subject,
      // Delivered mail is not kept: its links and codes would sit in the database as plain text.
      html: delivery.kind === "outbox" ? rendered.html : null,
      text: delivery.kind === "outbox" ? rendered.text : null,
      sender_config: JSON.stringify(delivery.senderConfig),
      delivery: delivery.kind === "outbox" && !renderingError ? "outbox" : "smtp",
      error,
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  if (delivery.kind === "outbox" && !error) {
    // No SMTP server: the one line a developer needs to go on with the flow.
    const code = rendered.code ? ` code ${rendered.code}` : "";
    const link = rendered.link ? ` ${rendered.link}` : "";
    log.info({ emailId: row.id, to: message.to, link: rendered.link || undefined, code: rendered.code }, `dev outbox: mail to ${message.to} "${rendered.subject}"${code}${link}`);
  } else if (error) {
    log.warn({ emailId: row.id, to: message.to, error }, "email delivery failed");
  } else {
    log.info({ emailId: row.id, to: message.to }, "email sent");
  }
  return { id: row.id, error };
}

/** The mail as sent, or why it could not be rendered (then nothing is sent and the send is recorded as failed). */
async function renderMessage(project: ProjectRow, message: EmailMessage): Promise<{ rendered: RenderedEmail; renderingError: string | null }> {
  const oneLine = (subject: string) => subject.replace(/[\r\n]+/g, " ");
  if ("renderingError" in message) {
    return { rendered: { subject: oneLine(message.subject), html: "", text: "", link: "", code: undefined }, renderingError: message.renderingError };
  }
  if ("rendered" in message) {
    return { rendered: { ...message.rendered, subject: oneLine(message.rendered.subject), link: "", code: undefined }, renderingError: null };
  }
  if (message.template === undefined) return { rendered: renderContentEmail(message), renderingError: null };
  const defaults = DEFAULT_EMAIL_TEMPLATES[message.template];
  // The link and code go to the outbox log line and page.
  const link = message.variables[defaults.linkVariable] ?? "";
  const code = defaults.codeVariable ? message.variables[defaults.codeVariable] : undefined;
  try {
    const mail = await renderTransactionalEmail(project, message.template, message.variables, message.variables.userDisplayName ?? null);
    return { rendered: { ...mail, subject: oneLine(mail.subject), link, code }, renderingError: null };
  } catch (err) {
    return { rendered: { subject: defaults.displayName, html: "", text: "", link, code }, renderingError: errorText(err) };
  }
}

/** The text of a delivery failure as SMTP (or the network) reported it. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
