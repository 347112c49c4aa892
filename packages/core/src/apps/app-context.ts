import { REFRESH_TOKEN_ERROR, isKnownError } from "../http/client-errors.js";
import type { TokenResponse } from "@latchkey/protocol/schemas";
import { systemClock, type Clock } from "../clock.js";
import { HttpClient, type AccessType, type ApiRequest, type SessionTokens } from "../http/http-client.js";
import { Session } from "../session/session.js";
import type { CookieJar } from "../token-stores/cookie-jar.js";
import { cookieTokenStore } from "../token-stores/cookie-token-store.js";
import { deviceTokenStore, type DeviceTokenStore } from "../token-stores/device-token-store.js";
import { memoryTokenStore } from "../token-stores/memory-token-store.js";
import { requestTokenStore, type RequestLike } from "../token-stores/request-token-store.js";
import type { TokenStore } from "../token-stores/token-store.js";
import { assertRedirectTrusted, resolveUrls, type AppUrls } from "../urls.js";

/** Where the session's tokens live: browser cookies, memory, a store of your own, or a request (server side). */
export type TokenStoreInit = "cookie" | "memory" | TokenStore | RequestLike;

/** Options every app takes. */
export interface AppOptions {
  projectId: string;
  /** The Latchkey server, e.g. `https://auth.example.com` (the API is under `/api/v1`). */
  baseUrl: string;
  /** Default: `cookie` where there is a `document`, else `memory`. */
  tokenStore?: TokenStoreInit;
  urls?: Partial<AppUrls>;
  /** How to go to a URL; default `location.assign`/`replace` in browsers, nothing elsewhere. */
  navigate?: (url: string, options: { replace: boolean }) => void | Promise<void>;
  /** The page the user is on (for `after_auth_return_to` and absolute callback URLs); default `location.href`. */
  currentUrl?: () => string | undefined;
  /** Origins besides the current page's that redirects may go to. */
  trustedOrigins?: string[];
  /** Cookies for the `cookie` token store; default `document.cookie`. */
  cookieJar?: CookieJar;
  /** Where device tokens (token-stores/device-token-store.ts) are kept; default localStorage where there is one, else memory. */
  deviceTokens?: DeviceTokenStore;
  clock?: Clock;
  fetch?: typeof fetch;
  random?: () => number;
  isOnline?: () => boolean;
  extraRequestHeaders?: Record<string, string>;
}

interface Keys {
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  projectOwnerSession?: SessionTokens;
}

/** Everything an app's actions share: the HTTP client, the session, urls and navigation. */
export interface AppContext {
  projectId: string;
  accessType: AccessType;
  http: HttpClient;
  session: Session;
  /** The browser's proofs of earlier sign-ins, sent with password sign-ins. */
  deviceTokens: DeviceTokenStore;
  clock: Clock;
  urls: AppUrls;
  currentUrl(): string | undefined;
  /** Sends a request as this app, with the session's tokens. */
  call<T>(request: Omit<ApiRequest, "accessType" | "session"> & { session?: Session | null }): Promise<T>;
  /** Goes to `url` if it is trusted (relative, same origin, or listed); throws otherwise. */
  redirect(url: string, options?: { replace?: boolean }): Promise<void>;
  /** `url` made absolute against the current page (callback URLs in emails must be absolute). */
  absoluteUrl(url: string): string;
}

export function createAppContext(options: AppOptions & Keys, accessType: AccessType): AppContext {
  const clock = options.clock ?? systemClock;
  const urls = resolveUrls(options.urls);
  const http = new HttpClient({
    baseUrl: options.baseUrl,
    projectId: options.projectId,
    publishableClientKey: options.publishableClientKey,
    secretServerKey: options.secretServerKey,
    superSecretAdminKey: options.superSecretAdminKey,
    projectOwnerSession: options.projectOwnerSession,
    fetch: options.fetch,
    clock,
    random: options.random,
    isOnline: options.isOnline,
    extraHeaders: options.extraRequestHeaders,
  });
  const currentUrl = options.currentUrl ?? (() => (globalThis as { location?: { href: string } }).location?.href);
  const tokenStore = resolveTokenStore(options, clock);
  const session = new Session(tokenStore, (refreshToken) => refreshAccessToken(http, options, accessType, refreshToken), clock);
  const navigate = options.navigate ?? defaultNavigate;

  return {
    projectId: options.projectId,
    accessType,
    http,
    session,
    deviceTokens: options.deviceTokens ?? deviceTokenStore(options.projectId),
    clock,
    urls,
    currentUrl,
    call: (request) => http.json({ ...request, accessType, session: request.session === undefined ? session : request.session }),
    async redirect(url, { replace = false } = {}) {
      assertRedirectTrusted(url, { currentUrl: currentUrl(), trustedOrigins: options.trustedOrigins });
      await navigate(url, { replace });
    },
    absoluteUrl(url) {
      const base = currentUrl();
      if (base) return new URL(url, base).toString();
      try {
        return new URL(url).toString();
      } catch {
        throw new Error(`Cannot make ${JSON.stringify(url)} absolute without a current page: pass an absolute callback URL or the currentUrl option.`);
      }
    },
  };
}

function resolveTokenStore(options: AppOptions, clock: Clock): TokenStore {
  const init = options.tokenStore ?? ("document" in globalThis ? "cookie" : "memory");
  if (init === "memory") return memoryTokenStore();
  if (init === "cookie") return cookieTokenStore({ projectId: options.projectId, jar: options.cookieJar, clock });
  if ("headers" in init) return requestTokenStore(options.projectId, init);
  return init;
}

/**
 * Trades a refresh token for an access token: the OAuth token endpoint's refresh grant (RFC 6749 §6), as the
 * protocol's client library does, when the app has a publishable client key; else (server and admin apps)
 * `POST /auth/sessions/current/refresh`. A refresh-token error means the session is gone: `null`.
 */
async function refreshAccessToken(http: HttpClient, options: AppOptions & Keys, accessType: AccessType, refreshToken: string): Promise<string | null> {
  try {
    if (options.publishableClientKey) {
      const response = await http.json<TokenResponse>({
        method: "POST",
        path: "/auth/oauth/token",
        form: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: options.projectId, client_secret: options.publishableClientKey },
        accessType: "client",
        // A refresh grant can be repeated safely: it creates nothing.
        idempotent: true,
      });
      return response.access_token;
    }
    const response = await http.json<{ access_token: string }>({
      method: "POST",
      path: "/auth/sessions/current/refresh",
      session: { getTokens: async () => ({ accessToken: null, refreshToken }), markAccessTokenExpired: () => {} },
      accessType,
      idempotent: true,
    });
    return response.access_token;
  } catch (error) {
    if (isKnownError(error, REFRESH_TOKEN_ERROR)) return null;
    throw error;
  }
}

function defaultNavigate(url: string, { replace }: { replace: boolean }): void {
  const location = (globalThis as { location?: { assign(url: string): void; replace(url: string): void } }).location;
  if (!location) return;
  if (replace) location.replace(url);
  else location.assign(url);
}
