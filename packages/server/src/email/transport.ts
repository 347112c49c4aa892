import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { EmailServerConfig } from "../config/project-config.js";
import type { SentEmailSenderConfig } from "../db/schema-emails.js";
import type { Env, SharedSmtpSettings } from "../env.js";

/**
 * nodemailer, loaded when a mail first goes out over SMTP (issue 35): ~0.08 s of CPU where Node loads it module by
 * module (a server run from its sources, each test file's worker), for a server whose mail may stay in the dev
 * outbox. In the bundle `npm start` runs it is a chunk of its own.
 */
let nodemailerPackage: Promise<typeof import("nodemailer")> | undefined;
async function openTransport(options: SMTPTransport.Options): Promise<Transporter> {
  const { default: nodemailer } = await (nodemailerPackage ??= import("nodemailer"));
  return nodemailer.createTransport(options);
}

/** How long an SMTP conversation may stall before the send is given up and recorded as failed. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The project's own SMTP server, as the `standard` email config (and `/internal/send-test-email`) names it. */
export interface StandardSmtpConfig {
  host: string;
  port: number;
  username: string;
  password: string;
  senderEmail: string;
  senderName: string;
}

/** Where a project's mail goes: an SMTP server with its sender address, or the dev outbox. */
export type EmailDelivery =
  | { kind: "smtp"; openTransport: () => Promise<Transporter>; senderEmail: string; senderConfig: SentEmailSenderConfig }
  | { kind: "outbox"; senderEmail: string; senderConfig: SentEmailSenderConfig }
  /** A `standard` config without the fields SMTP needs: every send fails with this message. */
  | { kind: "misconfigured"; error: string; senderEmail: string; senderConfig: SentEmailSenderConfig };

/**
 * Resolves a project's email server: `standard` is the project's own SMTP server; `shared` is the
 * server's own SMTP server from the environment, or the dev outbox when none is configured. `projectName` is the
 * sender name of shared mail.
 */
export function resolveDelivery(env: Env, server: EmailServerConfig, projectName: string): EmailDelivery {
  if (!server.isShared) {
    const senderConfig: SentEmailSenderConfig = withoutUndefined({
      type: "standard",
      host: server.host,
      port: server.port,
      username: server.username,
      sender_name: server.senderName ?? projectName,
      sender_email: server.senderEmail,
    });
    const { host, port, username, password, senderEmail, senderName } = server;
    if (!host || port === undefined || !username || password === undefined || !senderEmail) {
      return { kind: "misconfigured", error: "The project's email server config is incomplete (host, port, username, password and sender email are needed).", senderEmail: senderEmail ?? env.emailSender, senderConfig };
    }
    return { kind: "smtp", openTransport: () => standardTransport({ host, port, username, password, senderEmail, senderName: senderName ?? "" }), senderEmail, senderConfig };
  }
  // Shared mail goes out under the project's name (email/send.ts), which the sent-email log shows as its sender name.
  const senderConfig: SentEmailSenderConfig = { type: "shared", sender_name: projectName, sender_email: env.emailSender };
  if (!env.sharedSmtp) return { kind: "outbox", senderEmail: env.emailSender, senderConfig };
  const sharedSmtp = env.sharedSmtp;
  return { kind: "smtp", openTransport: () => sharedTransport(sharedSmtp), senderEmail: env.emailSender, senderConfig };
}

/**
 * A transport to a project's own SMTP server. Port 465 speaks TLS from the start; others upgrade with STARTTLS when
 * offered. `timeouts` replaces the default stall limits (the test send has its own overall limit).
 */
export function standardTransport(config: StandardSmtpConfig, timeouts: typeof TIMEOUTS = TIMEOUTS): Promise<Transporter> {
  return openTransport({
    host: config.host,
    port: config.port,
    secure: config.port === 465,
    auth: { user: config.username, pass: config.password },
    ...timeouts,
  });
}

/** The server's own SMTP server (also what `latchkey-server check` reaches). */
export function sharedTransport(settings: SharedSmtpSettings): Promise<Transporter> {
  if ("url" in settings) {
    const url = new URL(settings.url);
    return openTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
      secure: url.protocol === "smtps:",
      ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
      ...TIMEOUTS,
    });
  }
  return openTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? "" } } : {}),
    ...TIMEOUTS,
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
