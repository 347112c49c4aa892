import { sendTestEmailBody, sendTestEmailResponse, sentEmailListResponse } from "@latchkey/protocol/schemas";
import { errorText } from "../email/send.js";
import { standardTransport } from "../email/transport.js";
import { defineRoute } from "../http/route.js";

const TAGS = ["Emails"];

/**
 * Admin email routes: `GET /internal/emails` lists what the project sent (newest first), and
 * `POST /internal/send-test-email` tries an SMTP config and reports success or the SMTP error text.
 */
export const internalEmailsRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/emails",
    summary: "List the project's sent emails",
    tags: TAGS,
    access: ["admin"],
    response: { description: "Sent emails, newest first.", schema: sentEmailListResponse },
    handler: async (c, { auth }) => {
      const rows = await c
        .get("deps")
        .db.selectFrom("sent_emails")
        .select(["id", "subject", "sent_at", "recipient", "sender_config", "error"])
        .where("project_id", "=", auth.project.id)
        .orderBy("sent_at", "desc")
        .orderBy("id", "desc")
        .execute();
      const items = rows.map((row) => ({
        id: row.id,
        subject: row.subject,
        sent_at_millis: row.sent_at.getTime(),
        to: [row.recipient],
        sender_config: row.sender_config,
        error: row.error,
      }));
      return { items, is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/internal/send-test-email",
    summary: "Send a test email through an SMTP server",
    description: "Tries the given email server config; an SMTP failure is answered as `success: false` with the server's error text, not as an error.",
    tags: TAGS,
    access: ["admin"],
    request: { body: sendTestEmailBody },
    response: { description: "Whether the mail went out.", schema: sendTestEmailResponse },
    handler: async (c, { body }) => {
      const config = body.email_config;
      const transporter = standardTransport({
        host: config.host,
        port: config.port,
        username: config.username,
        password: config.password,
        senderEmail: config.sender_email,
        senderName: config.sender_name,
      });
      try {
        await transporter.sendMail({
          from: { name: config.sender_name, address: config.sender_email },
          to: body.recipient_email,
          subject: "Test email",
          text: "This is a test email. Your email server settings work.\n",
          html: "<p>This is a test email. Your email server settings work.</p>",
        });
        return { success: true };
      } catch (err) {
        const message = errorText(err);
        c.get("log").info({ error: message }, "test email failed");
        return { success: false, error_message: message };
      } finally {
        transporter.close();
      }
    },
  }),
];
