import { InvalidAccessToken } from "@latchkey/protocol/errors/session";
import { tokensOfIncomingRequest, type AuthenticatedUser } from "@latchkey/core/server";
import { verifierFor, type LatchkeyConfig } from "./config.js";

/** The request's headers, as `headers()` and `NextRequest` give them. */
export interface HeadersLike {
  get(name: string): string | null;
}

export interface SessionRead {
  user: AuthenticatedUser | null;
  /** Set when the access token had expired and was refreshed: the cookie to write back for the next request. */
  refreshed?: { accessCookie: string };
}

/** The browser's cookie token store keeps the access token as JSON `[refreshToken, accessToken]` (core's constants). */
export const ACCESS_TOKEN_COOKIE = "stack-access";
export const ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS = 86_400;

/**
 * Who the request is signed in as: its access token verified against the project's cached keys (no request to
 * Latchkey). An expired (or otherwise refused) token from the session cookies is refreshed with the session's
 * refresh token when the app has a publishable client key: one request, which also tells whether the session
 * still exists, so a revoked session is signed out once its last token expires. A bearer token is never
 * refreshed here: an API client refreshes its own.
 */
export async function readSession(config: LatchkeyConfig, headers: HeadersLike): Promise<SessionRead> {
  const verifier = verifierFor(config);
  const tokens = tokensOfIncomingRequest(config.projectId, { headers });
  if (tokens.accessToken) {
    try {
      return { user: await verifier.verifyAccessToken(tokens.accessToken) };
    } catch (error) {
      // A token to refuse (expired, another project's, forged): signed out unless the session refreshes.
      // Anything else is a setup problem (keys unreachable, wrong issuer) and surfaces.
      if (!(error instanceof InvalidAccessToken)) throw error;
    }
  }
  if (!tokens.refreshToken || !config.publishableClientKey) return { user: null };
  const accessToken = await refreshAccessToken(config, tokens.refreshToken);
  if (!accessToken) return { user: null };
  return {
    user: await verifier.verifyAccessToken(accessToken),
    refreshed: { accessCookie: JSON.stringify([tokens.refreshToken, accessToken]) },
  };
}

/** A new access token for the session, or null when the session is gone (revoked, expired, signed out). */
async function refreshAccessToken(config: LatchkeyConfig, refreshToken: string): Promise<string | null> {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/api/v1/auth/sessions/current/refresh`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        "x-stack-project-id": config.projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": config.publishableClientKey!,
        "x-stack-refresh-token": refreshToken,
      },
      cache: "no-store",
    });
  } catch (cause) {
    throw new Error(`@latchkey/next: could not reach the Latchkey server at ${config.baseUrl} to refresh a session.`, { cause });
  }
  if (response.ok) return ((await response.json()) as { access_token: string }).access_token;
  // The session is gone: REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED and the rest of its family.
  if ((response.headers.get("x-stack-known-error") ?? "").startsWith("REFRESH_TOKEN")) return null;
  const body = await response.text();
  throw new Error(`@latchkey/next: refreshing a session at ${url} answered ${response.status}: ${body.slice(0, 300)}`);
}
