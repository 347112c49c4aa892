import { sendTestEmailBody, sendTestEmailResponse, sentEmailListResponse } from "@latchkey/protocol/schemas";
import { sendTestEmail, TEST_EMAIL_SUBJECT, testEmailSenderConfig } from "../email/test-email.js";
import { defineRoute } from "../http/route.js";

const TAGS = ["Emails"];

/**
 * Admin email routes: `GET /internal/emails` lists what the project sent (newest first), and
 * `POST /internal/send-test-email` tries an SMTP config (email/test-email.ts) and reports success or what failed.
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
    description:
      "Tries the given email server config with a plain-text mail. A failure is answered as `success: false` with one of five texts " +
      "(host, login, timeout, over 10 seconds, other), not as an error; every attempt is kept in the sent-email log.",
    tags: TAGS,
    access: ["admin"],
    request: { body: sendTestEmailBody },
    response: { description: "Whether the mail went out.", schema: sendTestEmailResponse },
    handler: async (c, { auth, body }) => {
      const { email_config: wire, recipient_email: to } = body;
      const config = { host: wire.host, port: wire.port, username: wire.username, password: wire.password, senderEmail: wire.sender_email, senderName: wire.sender_name };
      const outcome = await sendTestEmail(config, to);
      // Logged like any send, so that a failure reaches the failed-emails digest and the admin's sent log.
      await c
        .get("deps")
        .db.insertInto("sent_emails")
        .values({
          project_id: auth.project.id,
          user_id: null,
          template: null,
          recipient: to,
          subject: TEST_EMAIL_SUBJECT,
          html: null,
          text: null,
          sender_config: JSON.stringify(testEmailSenderConfig(config)),
          delivery: "smtp",
          error: outcome.error === null ? null : outcome.detail,
        })
        .execute();
      if (outcome.error === null) return { success: true };
      c.get("log").info({ error: outcome.detail }, "test email failed");
      return { success: false, error_message: outcome.error };
    },
  }),
];
