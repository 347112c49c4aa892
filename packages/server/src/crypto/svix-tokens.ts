import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * The tokens `POST /webhooks/svix-token` hands out, which authorise the Svix-compatible API
 * (routes/webhooks-svix.ts) for one project. Stateless: the project id and expiry, with an HMAC under a key
 * derived from the server secret, so any server process verifies them and a rotated secret (kept in
 * LATCHKEY_PREVIOUS_SERVER_SECRETS) still accepts the tokens it signed until they expire.
 */

export const SVIX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
const PREFIX = "lkwh_";

const tokenKey = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "latchkey-svix-token", "", 32));
const mac = (secret: string, payload: string) => createHmac("sha256", tokenKey(secret)).update(payload).digest();

export function issueSvixToken(secret: string, projectId: string, nowMs = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ p: projectId, e: Math.floor(nowMs / 1000) + SVIX_TOKEN_LIFETIME_SECONDS })).toString("base64url");
  // The Svix client reads a region from the token's second dot-separated part; ours holds the MAC, never a region name.
  return `${PREFIX}${payload}.${mac(secret, payload).toString("base64url")}`;
}

/** The project a valid, unexpired token was issued for. */
export function verifySvixToken(secrets: readonly string[], token: string, nowMs = Date.now()): string | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const [payload, signature, ...rest] = token.slice(PREFIX.length).split(".");
  if (!payload || !signature || rest.length > 0) return undefined;
  const presented = Buffer.from(signature, "base64url");
  const signedByUs = secrets.some((secret) => {
    const expected = mac(secret, payload);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
  if (!signedByUs) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { p?: unknown; e?: unknown };
    if (typeof claims.p !== "string" || typeof claims.e !== "number" || claims.e * 1000 <= nowMs) return undefined;
    return claims.p;
  } catch {
    return undefined;
  }
}
