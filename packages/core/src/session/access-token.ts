
/** What the library reads from an access token (decoded only: the server verifies it, SPEC.md §3). */
export interface AccessTokenClaims {
  userId: string;
  /** Milliseconds since the epoch; `null` for a token that never expires. */
  expiresAt: number | null;
  isAnonymous: boolean;
  refreshTokenId: string | null;
}

/**
 * The payload of a JWT, decoded without verifying (the server verifies). Written here rather than taken from
 * jose: it is all the client needs, and the drop-in bundle's 20 KB budget counts every byte.
 */
function decodeJwtPayload(token: string): Record<string, unknown> {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) throw new Error("not a JWT");
  const base64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "=")), (c) => c.charCodeAt(0));
  const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new Error("JWT payload is not an object");
  return payload as Record<string, unknown>;
}

/** The claims of an access token, or `null` for a string that is not a JWT with a subject. */
export function readAccessToken(token: string): AccessTokenClaims | null {
  try {
    const payload = decodeJwtPayload(token);
    if (typeof payload.sub !== "string") return null;
    return {
      userId: payload.sub,
      expiresAt: typeof payload.exp === "number" ? payload.exp * 1000 : null,
      isAnonymous: payload.is_anonymous === true,
      refreshTokenId: typeof payload.refresh_token_id === "string" ? payload.refresh_token_id : null,
    };
  } catch {
    return null;
  }
}

/** SPEC.md §4: a token is fresh while it stays valid for at least `minValidMillis` more. */
export function isAccessTokenFresh(token: string, now: number, minValidMillis: number): boolean {
  const claims = readAccessToken(token);
  if (!claims) return false;
  return claims.expiresAt === null || claims.expiresAt - now >= minValidMillis;
}
