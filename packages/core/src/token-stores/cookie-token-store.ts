import { systemClock, type Clock } from "../clock.js";
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS,
  IS_HTTPS_COOKIE,
  LEGACY_REFRESH_TOKEN_COOKIE,
  REFRESH_TOKEN_COOKIE_MAX_AGE_SECONDS,
  refreshTokenCookieName,
} from "../constants.js";
import { documentCookieJar, type CookieJar } from "./cookie-jar.js";
import { Listeners, sameTokens, type TokenStore, type Tokens } from "./token-store.js";

export interface CookieTokenStoreOptions {
  projectId: string;
  /** `document.cookie` unless given. */
  jar?: CookieJar;
  /** How often to look for changes made elsewhere (another tab) while someone listens; SPEC.md §9: 100 ms. */
  pollIntervalMillis?: number;
  clock?: Clock;
}

/**
 * Tokens in cookies, as the protocol's client library keeps them (SPEC.md §9): the refresh token in
 * `stack-refresh-{projectId}` (1 year; the legacy `stack-refresh` is read and then removed), the access
 * token in `stack-access` (1 day) as JSON `[refreshToken, accessToken]`, used only while its refresh token
 * is the current one, so a stale access token of an earlier session is never sent.
 */
export function cookieTokenStore(options: CookieTokenStoreOptions): TokenStore {
  const jar = options.jar ?? documentCookieJar();
  const clock = options.clock ?? systemClock;
  const refreshCookie = refreshTokenCookieName(options.projectId);
  const listeners = new Listeners<Tokens>();
  // Whether a Secure cookie was seen to be dropped: the page is plain HTTP for the rest of its life.
  let secureCookiesDropped = false;
  let last = read();
  let stopPolling: (() => void) | undefined;

  function read(): Tokens {
    markHttps();
    const refreshToken = jar.get(refreshCookie) ?? jar.get(LEGACY_REFRESH_TOKEN_COOKIE) ?? null;
    return { refreshToken, accessToken: accessTokenFor(jar.get(ACCESS_TOKEN_COOKIE), refreshToken) };
  }

  /**
   * A Secure cookie set over plain HTTP is dropped by the browser, so whether `stack-is-https` sticks tells if the page
   * is HTTPS. It is written when missing, not at every read: each write of `document.cookie` is a message to the
   * browser's network process and makes the next read ask it again, which at one read every 100 ms cost a page ~20 ms
   * of CPU a second (Chromium 150: `node bench/cookie-poll.mjs`).
   */
  function markHttps(): void {
    if (secureCookiesDropped || jar.get(IS_HTTPS_COOKIE) !== undefined) return;
    jar.set(IS_HTTPS_COOKIE, "true", { maxAgeSeconds: REFRESH_TOKEN_COOKIE_MAX_AGE_SECONDS, secure: true });
    secureCookiesDropped = jar.get(IS_HTTPS_COOKIE) === undefined;
  }

  function poll(): void {
    const current = read();
    if (!sameTokens(current, last)) {
      last = current;
      listeners.emit(current);
    }
    stopPolling = clock.setTimer(poll, options.pollIntervalMillis ?? 100);
  }

  return {
    get() {
      last = read();
      return last;
    },
    set(tokens) {
      const secure = jar.get(IS_HTTPS_COOKIE) === "true";
      if (tokens.refreshToken) jar.set(refreshCookie, tokens.refreshToken, { maxAgeSeconds: REFRESH_TOKEN_COOKIE_MAX_AGE_SECONDS, secure });
      else jar.delete(refreshCookie);
      if (tokens.accessToken) {
        jar.set(ACCESS_TOKEN_COOKIE, JSON.stringify([tokens.refreshToken, tokens.accessToken]), { maxAgeSeconds: ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS, secure });
      } else {
        jar.delete(ACCESS_TOKEN_COOKIE);
      }
      jar.delete(LEGACY_REFRESH_TOKEN_COOKIE);
      const current = read();
      if (!sameTokens(current, last)) {
        last = current;
        listeners.emit(current);
      }
    },
    subscribe(listener) {
      const remove = listeners.add(listener);
      if (listeners.size === 1 && options.pollIntervalMillis !== 0) poll();
      return () => {
        remove();
        if (listeners.size === 0) stopPolling?.();
      };
    },
  };
}

/** The access token of a `stack-access` cookie, if it belongs to `refreshToken`. */
export function accessTokenFor(cookie: string | undefined, refreshToken: string | null): string | null {
  if (!cookie?.startsWith('["')) return null;
  try {
    const parsed: unknown = JSON.parse(cookie);
    if (!Array.isArray(parsed) || typeof parsed[1] !== "string") return null;
    return parsed[0] === refreshToken ? parsed[1] : null;
  } catch {
    return null;
  }
}
