import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { randomSecret } from "./secrets.js";

/**
 * Device tokens (issue 30): proof that a browser has signed in to an account before, so that an attacker's wrong
 * passwords, which block the account (services/auth-throttle.ts), never lock its owner out there — OWASP's "device
 * cookies". Not a cookie: the client library calls the API cross-origin without credentials (packages/core's HTTP
 * client sends `credentials: "omit"`), so the server hands the token out in a response header after a successful
 * password sign-in or sign-up, and the library keeps it (in localStorage in a browser) and sends it with the next
 * password sign-in to that account. Clients that do not (the published SDKs) are counted against the account as
 * before.
 *
 * Stateless: a device id and an expiry, with an HMAC under a key derived from the server secret over the project,
 * the account as typed (lowercased, as the limits key it) and the payload; a rotated secret still accepts the tokens
 * it signed. A token names its device; a stolen one only earns its holder the device's own count, and the per-address
 * limits apply to every request.
 */

/** The request and response header (Latchkey's own, the same in both protocol dialects). */
export const DEVICE_TOKEN_HEADER = "x-latchkey-device-token";
/** Renewed at each sign-in: a browser unused for this long is a new one again. */
export const DEVICE_TOKEN_LIFETIME_SECONDS = 180 * 24 * 60 * 60;
const PREFIX = "lkdv_";
/** Longer values are no token of ours, and are not worth a MAC. */
const MAX_LENGTH = 256;

const keys = new Map<string, Buffer>();
function tokenKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = Buffer.from(hkdfSync("sha256", secret, "latchkey-device-token", "", 32))));
  return key;
}

const mac = (secret: string, projectId: string, account: string, payload: string) =>
  createHmac("sha256", tokenKey(secret)).update(`${projectId}\n${account.toLowerCase()}\n${payload}`).digest();

/** A token for the device (a new one without `deviceId`), valid for the account of the project. */
export function issueDeviceToken(secret: string, projectId: string, account: string, deviceId = randomSecret(130), nowMs = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ d: deviceId, e: Math.floor(nowMs / 1000) + DEVICE_TOKEN_LIFETIME_SECONDS })).toString("base64url");
  return `${PREFIX}${payload}.${mac(secret, projectId, account, payload).toString("base64url")}`;
}

/** The device a valid, unexpired token for this account names; undefined for anything else (never an error). */
export function verifyDeviceToken(secrets: readonly string[], projectId: string, account: string, token: string | undefined, nowMs = Date.now()): string | undefined {
  if (!token || token.length > MAX_LENGTH || !token.startsWith(PREFIX)) return undefined;
  const [payload, signature, ...rest] = token.slice(PREFIX.length).split(".");
  if (!payload || !signature || rest.length > 0) return undefined;
  const presented = Buffer.from(signature, "base64url");
  const signedByUs = secrets.some((secret) => {
    const expected = mac(secret, projectId, account, payload);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
  if (!signedByUs) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { d?: unknown; e?: unknown };
    if (typeof claims.d !== "string" || !/^[a-z2-7]{26}$/.test(claims.d) || typeof claims.e !== "number" || claims.e * 1000 <= nowMs) return undefined;
    return claims.d;
  } catch {
    return undefined;
  }
}
