import { ACCESS_TOKEN_COOKIE, LEGACY_REFRESH_TOKEN_COOKIE, STACK_AUTH_HEADER, refreshTokenCookieName } from "../constants.js";
import { parseCookieHeader } from "./cookie-jar.js";
import { accessTokenFor } from "./cookie-token-store.js";
import { memoryTokenStore } from "./memory-token-store.js";
import type { TokenStore, Tokens } from "./token-store.js";

/** Anything with request headers: a fetch `Request`, or `{ headers }` of a framework. */
export interface RequestLike {
  headers: { get(name: string): string | null };
}

/**
 * The tokens of the request a server is answering (server-side use): the `x-stack-auth` header's JSON
 * `{ accessToken, refreshToken }` when present, else the request's cookies as the cookie store writes them.
 * Refreshes during the request are kept in memory; writing cookies back is the framework's job.
 */
export function requestTokenStore(projectId: string, request: RequestLike): TokenStore {
  return memoryTokenStore(tokensOfRequest(projectId, request));
}

export function tokensOfRequest(projectId: string, request: RequestLike): Tokens {
  const header = request.headers.get(STACK_AUTH_HEADER);
  if (header) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(header);
    } catch (cause) {
      throw new Error(`Invalid ${STACK_AUTH_HEADER} header: expected JSON {accessToken, refreshToken}, received ${header}`, { cause });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error(`Invalid ${STACK_AUTH_HEADER} header: expected a JSON object, received ${header}`);
    }
    const { accessToken, refreshToken } = parsed as Record<string, unknown>;
    return { accessToken: typeof accessToken === "string" ? accessToken : null, refreshToken: typeof refreshToken === "string" ? refreshToken : null };
  }
  const cookies = parseCookieHeader(request.headers.get("cookie") ?? "");
  const refreshToken = cookies.get(refreshTokenCookieName(projectId)) || cookies.get(LEGACY_REFRESH_TOKEN_COOKIE) || null;
  return { refreshToken, accessToken: accessTokenFor(cookies.get(ACCESS_TOKEN_COOKIE), refreshToken) };
}
