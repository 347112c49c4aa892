import type { SentEmailRead } from "@latchkey/protocol/schemas";

/** The email server a mail went through, as the sent log records it (never with its password). */
export interface SentEmailSender {
  type: "shared" | "standard";
  host?: string;
  port?: number;
  username?: string;
  senderName?: string;
  senderEmail?: string;
}

/** One mail the project sent; `error` is what its delivery failed with, null when it went out. */
export interface SentEmail {
  id: string;
  subject: string;
  sentAt: Date;
  to: string[];
  sender: SentEmailSender;
  error: string | null;
}

/** An SMTP server to try with a test mail (`/internal/send-test-email`); every field is needed. */
export interface TestEmailServer {
  host: string;
  port: number;
  username: string;
  password: string;
  senderName: string;
  senderEmail: string;
}

/** Whether the test mail went out; otherwise the SMTP server's (or the network's) error text. */
export type TestEmailResult = { success: true } | { success: false; errorMessage: string };

export function sentEmailFromWire(wire: SentEmailRead): SentEmail {
  const sender = wire.sender_config;
  return {
    id: wire.id,
    subject: wire.subject,
    sentAt: new Date(wire.sent_at_millis),
    to: wire.to,
    sender: {
      type: sender.type,
      ...(sender.host !== undefined ? { host: sender.host } : {}),
      ...(sender.port !== undefined ? { port: sender.port } : {}),
      ...(sender.username !== undefined ? { username: sender.username } : {}),
      ...(sender.sender_name !== undefined ? { senderName: sender.sender_name } : {}),
      ...(sender.sender_email !== undefined ? { senderEmail: sender.sender_email } : {}),
    },
    error: wire.error ?? null,
  };
}

export function testEmailServerToWire(server: TestEmailServer): Record<string, unknown> {
  return {
    host: server.host,
    port: server.port,
    username: server.username,
    password: server.password,
    sender_name: server.senderName,
    sender_email: server.senderEmail,
  };
}

/** The project config's `email_config` for an SMTP server of the project's own, or the shared one (null). */
export function emailConfigToWire(server: TestEmailServer | null): Record<string, unknown> {
  return server ? { type: "standard", ...testEmailServerToWire(server) } : { type: "shared" };
}
