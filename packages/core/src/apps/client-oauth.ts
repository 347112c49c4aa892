import { OAUTH_VERIFIER_COOKIE_MAX_AGE_SECONDS, oauthVerifierCookieName } from "../constants.js";
import { documentCookieJar } from "../token-stores/cookie-jar.js";
import type { AppContext } from "./app-context.js";

/**
 * The browser side of OAuth sign-in (SPEC.md §4): a PKCE verifier (S256) and a state kept in a cookie for
 * one hour, then a redirect to the server's authorize endpoint with the protocol's parameters. The server
 * sends the user back to the oauth-callback page with `code` and `state`.
 */
export function clientOAuthActions(ctx: AppContext, publishableClientKey: string | undefined, baseUrl: string | undefined) {
  return {
    async signInWithOAuth(provider: string, options: { returnTo?: string } = {}): Promise<void> {
      if (!publishableClientKey || !baseUrl) throw new Error("OAuth sign-in needs a client app (publishable client key and base URL)");
      const verifier = randomBase64Url(32);
      const state = randomBase64Url(24);
      const challenge = base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
      documentCookieJar().set(oauthVerifierCookieName(state), verifier, { maxAgeSeconds: OAUTH_VERIFIER_COOKIE_MAX_AGE_SECONDS, secure: false });

      const url = new URL(`${baseUrl.replace(/\/+$/, "")}/api/v1/auth/oauth/authorize/${encodeURIComponent(provider.toLowerCase())}`);
      const params: Record<string, string> = {
        client_id: ctx.projectId,
        client_secret: publishableClientKey,
        redirect_uri: ctx.absoluteUrl(ctx.urls.oauthCallback),
        scope: "legacy",
        state,
        grant_type: "authorization_code",
        code_challenge: challenge,
        code_challenge_method: "S256",
        response_type: "code",
        type: "authenticate",
        error_redirect_url: ctx.absoluteUrl(ctx.urls.error),
      };
      if (options.returnTo) params.after_callback_redirect_url = ctx.absoluteUrl(options.returnTo);
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      // The authorize endpoint is the server's own origin, which the app trusts by configuration.
      const location = (globalThis as { location?: { assign(url: string): void } }).location;
      location?.assign(url.toString());
    },
  };
}

function randomBase64Url(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
