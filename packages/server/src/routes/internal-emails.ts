import { Hono } from "hono";
import { emailAddress } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { errorText } from "../email/send.js";
import { standardTransport } from "../email/transport.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";

const sendTestEmailBody = z.object({
  recipient_email: emailAddress,
  email_config: z.object({
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    username: z.string().min(1),
    password: z.string(),
    sender_email: emailAddress,
    sender_name: z.string().min(1),
  }),
});

/**
 * Admin email routes: `GET /internal/emails` lists what the project sent (newest first), and
 * `POST /internal/send-test-email` tries an SMTP config and reports success or the SMTP error text.
 */
export function internalEmailsRoutes() {
  return new Hono<AppEnv>()
    .get("/internal/emails", async (c) => {
      const auth = requireAccess(c, ["admin"]);
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
      return c.json({ items, is_paginated: false });
    })
    .post("/internal/send-test-email", async (c) => {
      requireAccess(c, ["admin"]);
      const { body } = validate(c, { body: sendTestEmailBody });
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
        return c.json({ success: true });
      } catch (err) {
        const message = errorText(err);
        c.get("log").info({ error: message }, "test email failed");
        return c.json({ success: false, error_message: message });
      } finally {
        transporter.close();
      }
    });
}
