import { createHmac, randomBytes } from "node:crypto";

/**
 * Webhook signing per Standard Webhooks (the scheme Svix uses, so the `svix` and `standardwebhooks` packages
 * verify our deliveries unchanged): secrets are `whsec_` + base64 of the key bytes, and a signature is
 * `v1,` + base64 HMAC-SHA256 of `{message id}.{timestamp in seconds}.{body}`.
 */

const PREFIX = "whsec_";
// Svix accepts keys of 24 to 75 bytes; it makes 24-byte ones itself.
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 75;

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(MIN_KEY_BYTES).toString("base64");
}

/** Whether a caller-chosen secret is one Svix would accept. */
export function isValidWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const encoded = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return false;
  const bytes = Buffer.from(encoded, "base64").length;
  return bytes >= MIN_KEY_BYTES && bytes <= MAX_KEY_BYTES;
}

export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  return "v1," + createHmac("sha256", key).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64");
}
