import type { Context } from "hono";
import { getCookie } from "hono/cookie";

/**
 * The cookie that binds an OAuth flow to the browser that started it (login-CSRF defence, as the protocol's
 * server does it): /auth/oauth/authorize sets `stack-oauth-inner-<state>=true` on the server's origin, where
 * `<state>` is the state the provider gets; the callback must come with it. A callback URL copied into another
 * browser (an attacker's finished provider login, sent to a victim) carries no such cookie and is refused.
 * The attributes and their order are the protocol server's (its framework's cookie serializer); no SameSite,
 * so the provider's cross-site redirect back (or Apple's form_post) still carries it.
 */

const PREFIX = "stack-oauth-inner-";

/** A cookie name is an RFC 7230 token: a state with anything else could split the header, so it names no cookie. */
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]*$/;

/** The Set-Cookie of the authorize answer: as long-lived as the flow's record. */
export function innerStateCookie(state: string, options: { maxAgeSeconds: number; secure: boolean; now?: number }): string {
  const expires = new Date((options.now ?? Date.now()) + options.maxAgeSeconds * 1000).toUTCString();
  return `${PREFIX}${state}=true; Path=/; Expires=${expires}; Max-Age=${options.maxAgeSeconds}; ${options.secure ? "Secure; " : ""}HttpOnly`;
}

/** The Set-Cookie every callback answer carries, clearing the cookie; undefined when the state cannot name one. */
export function clearedInnerStateCookie(state: string): string | undefined {
  return TOKEN.test(state) ? `${PREFIX}${state}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT` : undefined;
}

/** Whether the request carries the cookie of `state` with the value the authorize answer set. */
export function hasInnerStateCookie(c: Context, state: string): boolean {
  return TOKEN.test(state) && getCookie(c, `${PREFIX}${state}`) === "true";
}
