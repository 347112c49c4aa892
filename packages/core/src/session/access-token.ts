import { decodeJwt } from "jose";

/** What the library reads from an access token (decoded only: the server verifies it, SPEC.md §3). */
export interface AccessTokenClaims {
  userId: string;
  /** Milliseconds since the epoch; `null` for a token that never expires. */
  expiresAt: number | null;
  isAnonymous: boolean;
  refreshTokenId: string | null;
}

/** The claims of an access token, or `null` for a string that is not a JWT with a subject. */
export function readAccessToken(token: string): AccessTokenClaims | null {
  try {
    // Decoded only, never verified: the server verifies (jose throws for anything that is not a JWT).
    const payload = decodeJwt(token);
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
