/** Client-side constants of SPEC.md §9 (cookies, timings, retry policy). */

/** An access token is used while it stays valid for at least this long; otherwise it is refreshed first. */
export const ACCESS_TOKEN_FRESHNESS_MILLIS = 20_000;

/** Network retry: attempts in all, first delay, and the jitter range applied to each (doubling) delay. */
export const NETWORK_RETRY_ATTEMPTS = 5;
export const NETWORK_RETRY_BASE_DELAY_MILLIS = 1_000;
export const NETWORK_RETRY_JITTER = { min: 0.5, max: 1.5 } as const;

/** A cached store nobody listens to is dropped after this long, so the next subscriber reloads it. */
export const STORE_DROP_DELAY_MILLIS = 5_000;

/** Cookie names and lifetimes (seconds) of the cookie token store. */
export const refreshTokenCookieName = (projectId: string): string => `stack-refresh-${projectId}`;
export const LEGACY_REFRESH_TOKEN_COOKIE = "stack-refresh";
export const ACCESS_TOKEN_COOKIE = "stack-access";
export const IS_HTTPS_COOKIE = "stack-is-https";
export const REFRESH_TOKEN_COOKIE_MAX_AGE_SECONDS = 31_536_000;
export const ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS = 86_400;

/** The header server frameworks pass tokens in: JSON `{ accessToken, refreshToken }`. */
export const STACK_AUTH_HEADER = "x-stack-auth";

/** Sent as x-stack-client-version. */
export const CLIENT_VERSION = "latchkey-core@0.1.0";

/** Default handler base path (SPEC.md §2). */
export const DEFAULT_HANDLER_PATH = "/handler";

/** OAuth sign-in keeps its PKCE verifier in this cookie (one per state) for an hour (SPEC.md §4). */
export const oauthVerifierCookieName = (state: string): string => `stack-oauth-outer-${state}`;
export const OAUTH_VERIFIER_COOKIE_MAX_AGE_SECONDS = 3_600;

/** A CLI login polls for its token this often (SPEC.md §9). */
export const CLI_POLL_INTERVAL_MILLIS = 2_000;
