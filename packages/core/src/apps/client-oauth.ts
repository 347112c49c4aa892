import type { AuthorizationCodeTokenResponse } from "@latchkey/protocol/schemas";
import { ACCESS_TOKEN_FRESHNESS_MILLIS, OAUTH_VERIFIER_COOKIE_MAX_AGE_SECONDS, oauthVerifierCookieName } from "../constants.js";
import { readAccessToken } from "../session/access-token.js";
import { documentCookieJar } from "../token-stores/cookie-jar.js";
import { pkceChallenge, randomBase64Url } from "../flows/pkce.js";
import type { AppContext } from "./app-context.js";
import { clientConnectedAccountActions } from "./client-connected-accounts.js";
import type { RedirectOptions, SignInResult } from "./client-auth-actions.js";

export type { ConnectedAccount, OAuthConnection } from "./client-connected-accounts.js";

/**
 * OAuth in the browser (SPEC.md §4), as the protocol's client library does it: a PKCE verifier (S256) kept in a
 * cookie named after a random state for an hour, a redirect to the server's authorize endpoint, and on the
 * oauth-callback page the code exchanged at `/auth/oauth/token` once the state is checked and removed from the URL.
 */
export function clientOAuthActions(
  ctx: AppContext,
  publishableClientKey: string | undefined,
  baseUrl: string | undefined,
  completeSignIn: (response: { access_token: string; refresh_token: string; user_id: string; is_new_user: boolean }, options: RedirectOptions & { returnTo?: string | null }) => Promise<SignInResult>,
  onUserChange: () => Promise<void>,
) {
  const apiUrl = () => {
    if (!publishableClientKey || !baseUrl) throw new Error("OAuth needs a client app (publishable client key and base URL)");
    return `${baseUrl.replace(/\/+$/, "")}/api/v1`;
  };

  async function goToProvider(provider: string, type: "authenticate" | "link", options: { returnTo?: string; providerScope?: string }): Promise<void> {
    const api = apiUrl();
    const verifier = randomBase64Url(32);
    const state = randomBase64Url(24);
    const challenge = await pkceChallenge(verifier);
    documentCookieJar().set(oauthVerifierCookieName(state), verifier, { maxAgeSeconds: OAUTH_VERIFIER_COOKIE_MAX_AGE_SECONDS, secure: false });

    const url = new URL(`${api}/auth/oauth/authorize/${encodeURIComponent(provider.toLowerCase())}`);
    const params: Record<string, string | undefined> = {
      client_id: ctx.projectId,
      client_secret: publishableClientKey,
      redirect_uri: ctx.absoluteUrl(ctx.urls.oauthCallback),
      scope: "legacy",
      state,
      grant_type: "authorization_code",
      code_challenge: challenge,
      code_challenge_method: "S256",
      response_type: "code",
      type,
      error_redirect_url: ctx.absoluteUrl(ctx.urls.error),
      after_callback_redirect_url: options.returnTo ? ctx.absoluteUrl(options.returnTo) : undefined,
      provider_scope: options.providerScope,
    };
    // The signed-in user (linking), or an anonymous one a sign-up upgrades.
    const tokens = await ctx.session.getTokens(ACCESS_TOKEN_FRESHNESS_MILLIS).catch(() => null);
    if (tokens?.accessToken) params.token = tokens.accessToken;
    if (type === "link" && !params.token) throw new Error("Linking an OAuth provider needs a signed-in user");
    for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
    // The authorize endpoint is the server's own origin, which the app trusts by configuration.
    (globalThis as { location?: { assign(url: string): void } }).location?.assign(url.toString());
  }

  return {
    /** Goes to the provider to sign in (or sign up); the oauth-callback page finishes it. */
    signInWithOAuth(provider: string, options: { returnTo?: string } = {}): Promise<void> {
      return goToProvider(provider, "authenticate", options);
    },

    /** Links another provider account to the signed-in user, then comes back to `returnTo` (default: this page). */
    linkOAuthProvider(provider: string, options: { scopes?: string[]; returnTo?: string } = {}): Promise<void> {
      return goToProvider(provider, "link", { returnTo: options.returnTo ?? ctx.currentUrl(), providerScope: options.scopes?.join(" ") || undefined });
    },

    /**
     * The oauth-callback page's work: checks the `state` in the URL against the verifier cookie, removes `code`
     * and `state` from the URL, exchanges the code, stores the session, then goes to the page the flow was
     * started from (`after_callback_redirect_url`, same origin only), or after-sign-in / after-sign-up.
     * Returns null when the URL carries no callback of ours (a reload, a page opened from history).
     * Users with two-factor authentication get MULTI_FACTOR_AUTHENTICATION_REQUIRED (its attempt code in `details`).
     */
    async callOAuthCallback(options: RedirectOptions = {}): Promise<SignInResult | null> {
      const current = ctx.currentUrl();
      if (!current) return null;
      const url = new URL(current);
      const code = url.searchParams.get("code");
      const state = url.searchParams.get("state");
      if (!code || !state) return null;
      const jar = documentCookieJar();
      const verifier = jar.get(oauthVerifierCookieName(state));
      if (!verifier) return null;
      jar.delete(oauthVerifierCookieName(state));
      url.searchParams.delete("code");
      url.searchParams.delete("state");
      (globalThis as { history?: { replaceState(data: unknown, unused: string, url: string): void } }).history?.replaceState({}, "", url.toString());

      // JSON rather than a form: the token endpoint takes both, and the app's own HTTP client (its fetch, retries,
      // known errors) carries it. The client credentials are the project id and the publishable key.
      const json = await ctx.call<AuthorizationCodeTokenResponse>({
        method: "POST",
        path: "/auth/oauth/token",
        body: {
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: ctx.absoluteUrl(ctx.urls.oauthCallback),
          client_id: ctx.projectId,
          client_secret: publishableClientKey ?? "",
        },
        session: null,
      });
      const returnTo = json.after_callback_redirect_url && sameOrigin(json.after_callback_redirect_url, current) ? json.after_callback_redirect_url : null;
      // Decoded only: the server just issued it.
      const userId = readAccessToken(json.access_token)?.userId ?? "";
      return completeSignIn({ access_token: json.access_token, refresh_token: json.refresh_token, user_id: userId, is_new_user: json.is_new_user }, { ...options, returnTo });
    },
    ...clientConnectedAccountActions(ctx, onUserChange, (provider, scope) =>
      goToProvider(provider, "link", { returnTo: ctx.currentUrl(), providerScope: scope || undefined }),
    ),
  };
}

function sameOrigin(url: string, current: string): boolean {
  try {
    return new URL(url, current).origin === new URL(current).origin;
  } catch {
    return false;
  }
}
