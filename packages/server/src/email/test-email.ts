import type { SentEmailSenderConfig } from "../db/schema-emails.js";
import { errorText } from "./send.js";
import { standardTransport, type StandardSmtpConfig } from "./transport.js";

/**
 * `POST /internal/send-test-email`'s mail and its outcome, as the reference words them: a plain-text mail, and
 * for a failure one of five texts (host, login, timeout, over ten seconds, anything else) rather than the SMTP
 * client's own message. The client's message still goes to the sent-email log, where an admin can read it.
 */

export const TEST_EMAIL_SUBJECT = "Test Email from Stack Auth";
export const TEST_EMAIL_TEXT = "This is a test email from Stack Auth. If you successfully received this email, your email server configuration is working correctly.";

/** The whole attempt may take this long; then it is answered as failed (the connection is left to time out). */
export const TEST_EMAIL_LIMIT_MS = 10_000;
// Longer than the limit, so that the limit decides a slow server's answer (as the reference's), while a
// connection left behind still ends by itself.
const LINGERING_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 30_000 };

export const TEST_EMAIL_ERRORS = {
  host: "Failed to connect to the email host. Please make sure the email host configuration is correct.",
  auth: "Failed to authenticate with the email server. Please check your email credentials configuration.",
  timeout: "Timed out. Make sure the email server is running and accepting connections.",
  overLimit: "Timed out while sending test email. Make sure the email server is running and accepting connections.",
  unknown: "An unknown error occurred while sending the test email.",
} as const;

// A name that does not resolve, or an address nothing answers on: the host setting is what to check.
const HOST_CODES = new Set(["EDNS", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH"]);

/** The text an admin is shown for a failed test send (nodemailer's `code`, `originalCode` and `responseCode`). */
export function testEmailErrorMessage(err: unknown): string {
  const fields = (err ?? {}) as { code?: unknown; originalCode?: unknown; responseCode?: unknown; message?: unknown };
  const codes = [fields.code, fields.originalCode].filter((code): code is string => typeof code === "string");
  const message = typeof fields.message === "string" ? fields.message : "";
  if (codes.some((code) => HOST_CODES.has(code))) return TEST_EMAIL_ERRORS.host;
  if (codes.includes("EAUTH") || fields.responseCode === 535) return TEST_EMAIL_ERRORS.auth;
  if (codes.includes("ETIMEDOUT") || message.includes("ETIMEDOUT")) return TEST_EMAIL_ERRORS.timeout;
  return TEST_EMAIL_ERRORS.unknown;
}

export type TestEmailOutcome = { error: null } | { error: string; detail: string };

/** Sends the test mail through `config`; `detail` is what the sent-email log keeps of a failure. */
export async function sendTestEmail(config: StandardSmtpConfig, to: string): Promise<TestEmailOutcome> {
  const transporter = await standardTransport(config, LINGERING_TIMEOUTS);
  let timer: NodeJS.Timeout | undefined;
  const overLimit = new Promise<"over-limit">((resolve) => {
    timer = setTimeout(() => resolve("over-limit"), TEST_EMAIL_LIMIT_MS);
  });
  const sending = transporter.sendMail({ from: { name: config.senderName, address: config.senderEmail }, to, subject: TEST_EMAIL_SUBJECT, text: TEST_EMAIL_TEXT });
  try {
    if ((await Promise.race([sending, overLimit])) === "over-limit") return { error: TEST_EMAIL_ERRORS.overLimit, detail: TEST_EMAIL_ERRORS.overLimit };
    return { error: null };
  } catch (err) {
    return { error: testEmailErrorMessage(err), detail: errorText(err) };
  } finally {
    clearTimeout(timer);
    transporter.close();
  }
}

/** The test send's server as the sent-email log shows it (without the password). */
export function testEmailSenderConfig(config: StandardSmtpConfig): SentEmailSenderConfig {
  return { type: "standard", host: config.host, port: config.port, username: config.username, sender_name: config.senderName, sender_email: config.senderEmail };
}
