import { z } from "zod";
import { emailAddress } from "./project-config.js";

/**
 * The admin's email routes (SPEC.md §7 Emails): `GET /internal/emails`, the project's sent mail, and
 * `POST /internal/send-test-email`, which tries an SMTP server config. Sending to users
 * (`/emails/send-email`) and preferences are in notification-preferences.ts.
 */

/** The email server a mail went through, without its password (the protocol's `emailConfigWithoutPassword`). */
export const sentEmailSenderConfig = z.strictObject({
  type: z.enum(["shared", "standard"]),
  host: z.string().optional(),
  port: z.number().optional(),
  username: z.string().optional(),
  sender_name: z.string().optional(),
  sender_email: z.string().optional(),
});

/** One sent mail as the admin sees it; `error` is what delivery failed with, null when it went out. */
export const sentEmailRead = z.strictObject({
  id: z.string(),
  subject: z.string(),
  sent_at_millis: z.number(),
  to: z.array(z.string()),
  sender_config: sentEmailSenderConfig,
  error: z.string().nullable().optional(),
});
export type SentEmailRead = z.infer<typeof sentEmailRead>;

/** `GET /internal/emails`: newest first, in one unpaginated list. */
export const sentEmailListResponse = z.strictObject({
  items: z.array(sentEmailRead),
  is_paginated: z.literal(false),
});

/**
 * `POST /internal/send-test-email`. The config's fields are declared in the protocol's order (host, port,
 * username, password, sender_name, sender_email), which is the order missing ones are reported in.
 */
export const sendTestEmailBody = z.strictObject({
  recipient_email: emailAddress,
  email_config: z.strictObject({
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    username: z.string().min(1),
    password: z.string(),
    sender_name: z.string().min(1),
    sender_email: emailAddress,
  }),
});
export type SendTestEmailBody = z.infer<typeof sendTestEmailBody>;

/** Whether the test mail went out; otherwise the SMTP server's (or the network's) error text. */
export const sendTestEmailResponse = z.strictObject({
  success: z.boolean(),
  error_message: z.string().optional(),
});
