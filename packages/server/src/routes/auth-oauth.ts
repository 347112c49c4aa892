import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownError, KnownErrors } from "@latchkey/protocol/errors";
import { oauthAuthorizeJsonResponse, oauthAuthorizeQuery } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { isOAuthRedirectTrustedForProject } from "../config/hosted-pages.js";
import { verifyAccessToken } from "../crypto/access-tokens.js";
import type { AppEnv } from "../http/context.js";
import { oauthClientProject } from "../http/oauth-client.js";
import { knownErrorResponse } from "../http/known-error-response.js";
import { isBrowserNavigation, untrustedOriginPage } from "../http/untrusted-origin-page.js";
import { defineRoute } from "../http/route.js";
import { ProviderCallbackError } from "../oauth/inner-client.js";
import { clearedInnerStateCookie, hasInnerStateCookie, innerStateCookie } from "../oauth/inner-state-cookie.js";
import { findProjectProvider, providerCallbackUrl, providerClient } from "../oauth/project-providers.js";
import {
  consumeOuterState,
  createAuthorizationCode,
  createOuterState,
  OUTER_STATE_LIFETIME_MS,
  pkceChallengeOf,
} from "../services/oauth-flow-records.js";
import { applyProviderAnswer } from "../services/oauth-sign-in.js";
import { getProject } from "../services/projects.js";

const TAGS = ["OAuth"];

const providerParams = z.object({ provider_id: z.string() });

/**
 * The browser legs of OAuth sign-in and linking (SPEC.md §4): `/auth/oauth/authorize/{provider_id}` sends the
 * user to the provider with Latchkey's own state and PKCE; the provider comes back to
 * `/auth/oauth/callback/{provider_id}`, which applies the answer (services/oauth-sign-in.ts) and sends the user
 * to the client's redirect_uri with a Latchkey authorization code (exchanged at /auth/oauth/token).
 */
export const oauthFlowRoutes = [
  defineRoute({
    method: "get",
    path: "/auth/oauth/authorize/:provider_id",
    summary: "Start OAuth sign-in or linking",
    description:
      "Opened in the browser (no x-stack headers): `client_id` is the project id, `client_secret` a publishable client key. Answers " +
      "307 to the provider with one cookie, `stack-oauth-inner-<state>=true` (HttpOnly, 600 s), which the callback requires: the flow " +
      "finishes only in the browser that started it. URLs are checked for syntax here and for trust at the callback. With " +
      "`hexclave_response_mode=json` (or `stack_response_mode=json`), once the request is checked, 200 `{ location }`: this request " +
      "in redirect mode, for the browser to navigate to.",
    tags: TAGS,
    access: "public",
    request: { params: providerParams, query: oauthAuthorizeQuery },
    response: { status: 307, description: "A redirect to the provider's authorization page.", schema: oauthAuthorizeJsonResponse },
    errors: [
      KnownErrors.InvalidOAuthClientIdOrSecret,
      KnownErrors.InvalidPublishableClientKey,
      KnownErrors.OAuthProviderNotFoundOrNotEnabled,
      KnownErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys,
    ],
    handler: async (c, { params, query }) => {
      const { db, env } = c.get("deps");
      const client = await oauthClientProject(c, query.client_id, query.client_secret);
      if (!client) throw new KnownErrors.InvalidOAuthClientIdOrSecret(query.client_id);
      const { project } = client;
      if (!client.keyAccepted) throw new KnownErrors.InvalidPublishableClientKey(project.id);

      const config = renderProjectConfig(project.config_override as ConfigObject);
      const provider = findProjectProvider(config, params.provider_id);
      const usable = provider && (query.type === "link" ? provider.allowConnectedAccounts || provider.allowSignIn : provider.allowSignIn);
      if (!provider || !usable) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
      if (query.provider_scope && provider.isShared) throw new KnownErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys();
      const providerApi = providerClient(env, config, provider);

      let userId: string | null = null;
      if (query.token) {
        const claims = await verifyAccessToken(env, query.token, { allowAnonymous: true });
        if (claims.project_id !== project.id) throw new KnownErrors.InvalidProjectForAccessToken(project.id, claims.project_id);
        userId = claims.sub;
      } else if (query.type === "link") {
        throw new HTTPException(400, { message: "?token= query parameter is required for link type" });
      }

      // 2.8.108 fetches this from the app's page, then navigates to the answer's location. A cross-origin fetch keeps
      // no cookie, so the location is this request in redirect mode, on the public URL: the browser's own navigation
      // there gets the cookie that binds the flow, and every flow is bound.
      if (query.hexclave_response_mode === "json" || query.stack_response_mode === "json") {
        const again = new URL(`${env.publicUrl}/api/v1/auth/oauth/authorize/${encodeURIComponent(params.provider_id)}${new URL(c.req.url).search}`);
        again.searchParams.delete("hexclave_response_mode");
        again.searchParams.delete("stack_response_mode");
        return c.json({ location: again.toString() }, 200);
      }

      // The URLs are only parsed here (the schema); whether they are trusted is decided at the callback, as the
      // protocol's server does it, so an untrusted redirect_uri still goes to the provider.
      const innerCodeVerifier = randomBytes(32).toString("base64url");
      const now = Date.now();
      const state = await createOuterState(
        db,
        project.id,
        {
          providerConfigId: provider.configId,
          type: query.type,
          redirectUri: query.redirect_uri.split("#")[0]!,
          clientState: query.state,
          // RFC 7636 §4.2: `plain` sends the verifier itself; stored as its S256 so the token endpoint checks one way.
          codeChallenge: query.code_challenge_method === "plain" ? pkceChallengeOf(query.code_challenge) : query.code_challenge,
          userId,
          providerScope: query.provider_scope ?? null,
          errorRedirectUrl: query.error_redirect_uri ?? query.error_redirect_url ?? null,
          afterCallbackRedirectUrl: query.after_callback_redirect_url ?? null,
          innerCodeVerifier,
        },
        now,
      );
      const location = (
        await providerApi.authorizationUrl({
          redirectUri: providerCallbackUrl(env, provider.configId),
          state,
          codeChallenge: pkceChallengeOf(innerCodeVerifier),
          extraScope: query.provider_scope,
        })
      ).toString();
      const cookie = innerStateCookie(state, { maxAgeSeconds: OUTER_STATE_LIFETIME_MS / 1000, secure: env.publicUrl.startsWith("https:"), now });
      return new Response(null, { status: 307, headers: { location, "set-cookie": cookie } });
    },
  }),
  ...(["get", "post"] as const).map((method) =>
    defineRoute({
      method,
      path: "/auth/oauth/callback/:provider_id",
      summary: method === "get" ? "OAuth provider callback" : "OAuth provider callback (form_post)",
      description:
        "Where providers send the user back, in the browser that started the flow (it holds the `stack-oauth-inner-<state>` cookie the " +
        "authorize answer set; every answer clears it). Answers 303 to the client's redirect_uri with `code` and `state`, or redirects a " +
        "known error to the client's error page when that page is trusted.",
      tags: TAGS,
      access: "public",
      request: { params: providerParams },
      looseQuery: true,
      response: { status: 303, description: "A redirect to the client's redirect_uri (body `{}`).", schema: z.object({}) },
      errors: [
        KnownErrors.OuterOAuthTimeout,
        KnownErrors.OAuthProviderNotFoundOrNotEnabled,
        KnownErrors.OAuthProviderAccessDenied,
        KnownErrors.RedirectUrlNotWhitelisted,
        KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser,
        KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse,
        KnownErrors.SignUpNotEnabled,
      ],
      handler: (c) => oauthCallback(c),
    }),
  ),
];

/** The callback's answer, whatever it is, clears the flow's inner-state cookie. */
async function oauthCallback(c: Context<AppEnv>): Promise<Response> {
  // As the protocol's server reads it: the query's state, else a form_post body's, else none.
  const body = c.get("body");
  const bodyState = body && typeof body === "object" && !(body instanceof Uint8Array) ? (body as Record<string, unknown>).state : undefined;
  const state = c.req.query("state") ?? (typeof bodyState === "string" ? bodyState : "");
  let response: Response;
  try {
    response = await callbackAnswer(c, state);
  } catch (error) {
    if (error instanceof KnownError) response = knownErrorResponse(error, c.get("dialect"));
    else if (error instanceof HTTPException) response = error.res ? error.getResponse() : new Response(error.message, { status: error.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    else throw error;
  }
  const cleared = clearedInnerStateCookie(state);
  if (cleared) response.headers.append("set-cookie", cleared);
  return response;
}

async function callbackAnswer(c: Context<AppEnv>, state: string): Promise<Response> {
  const { db, env } = c.get("deps");
  // The browser that started the flow holds its cookie; any other (a callback URL copied from an attacker's own
  // provider login) is refused before the flow is touched, so the real browser can still finish it.
  if (!hasInnerStateCookie(c, state)) {
    throw new HTTPException(400, { message: "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again" });
  }
  const consumed = state ? await consumeOuterState(db, state) : { status: "unknown" as const };
  if (consumed.status === "unknown") throw new HTTPException(400, { message: "Invalid OAuth cookie. Please try signing in again." });
  // Answered here, not redirected to the client's error page, as the protocol's server does.
  if (consumed.status === "expired") throw new KnownErrors.OuterOAuthTimeout();
  const { info } = consumed;
  const project = await getProject(db, consumed.projectId);
  const config = renderProjectConfig(project.config_override as ConfigObject);
  try {
    // The provider is the one the callback's path names; a flow started with another one cannot finish here (its
    // code would be exchanged at the wrong provider, which the protocol's server reports as an invalid grant).
    const provider = findProjectProvider(config, c.req.param("provider_id") ?? "");
    if (!provider) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
    // Answered here, never on the error page: the callback was not this provider's (issue 29's exact answer).
    if (provider.configId !== info.providerConfigId) throw new HTTPException(400, { message: INVALID_GRANT });
    let answer;
    try {
      answer = await providerClient(env, config, provider).callback({
        redirectUri: providerCallbackUrl(env, provider.configId),
        params: callbackParams(c),
        state,
        codeVerifier: info.innerCodeVerifier,
      });
    } catch (error) {
      if (!(error instanceof ProviderCallbackError)) throw error;
      if (error.kind === "access_denied") throw new KnownErrors.OAuthProviderAccessDenied();
      c.get("log").warn({ err: error, provider: provider.configId }, "OAuth provider callback failed");
      if (error.kind === "invalid_grant") throw new InvalidGrant();
      if (error.kind === "invalid_client") {
        throw new HTTPException(400, { message: "Invalid client credentials for this OAuth provider. Please ensure the configuration in the Stack Auth dashboard is correct." });
      }
      throw new HTTPException(502, { message: "The OAuth provider could not be reached or gave an answer that could not be used. Please try again." });
    }
    // After the provider's answer and before any user is made or changed, as the protocol's server checks it.
    const trusted = (url: string) => isOAuthRedirectTrustedForProject(env, project.id, config, url);
    if (!trusted(info.redirectUri)) throw new KnownErrors.RedirectUrlNotWhitelisted();
    const outcome = await applyProviderAnswer(db, env, project, provider, info, answer);
    const code = await createAuthorizationCode(db, project.id, {
      userId: outcome.userId,
      redirectUri: info.redirectUri,
      codeChallenge: info.codeChallenge,
      isNewUser: outcome.isNewUser,
      // Handed back as given, as the reference does: the client decides whether to go there (the SDKs and
      // @latchkey/core follow it only on their own origin).
      afterCallbackRedirectUrl: info.afterCallbackRedirectUrl,
    });
    const target = new URL(info.redirectUri);
    target.searchParams.set("code", code);
    target.searchParams.set("state", info.clientState);
    return new Response("{}", { status: 303, headers: { location: target.toString(), "content-type": "application/json; charset=utf-8" } });
  } catch (error) {
    if ((error instanceof KnownError || error instanceof InvalidGrant) && info.errorRedirectUrl && isOAuthRedirectTrustedForProject(env, project.id, config, info.errorRedirectUrl)) {
      return errorRedirect(info.errorRedirectUrl, error instanceof InvalidGrant ? INVALID_GRANT_ON_ERROR_PAGE : error);
    }
    // No page of the app to show it on: a person reads what is wrong and where it is fixed, not the JSON.
    if (error instanceof KnownErrors.RedirectUrlNotWhitelisted && isBrowserNavigation(c)) return untrustedOriginPage(c, project, info.redirectUri);
    throw error;
  }
}

const INVALID_GRANT = "Inner OAuth callback failed due to invalid grant. Please try again.";

/**
 * The provider refused the callback's code, or the callback carries none or was not sent by the provider: the
 * reference's 400 text, shown on the flow's error page when that page is trusted.
 */
class InvalidGrant extends HTTPException {
  constructor() {
    super(400, { message: INVALID_GRANT });
  }
}

/**
 * The invalid grant on a trusted error page: the text has no code of its own, and an error page rebuilds the error
 * from its code, so it goes as INVALID_AUTHORIZATION_CODE (known to both SDK versions) with the reference's text.
 */
const INVALID_GRANT_ON_ERROR_PAGE = { code: KnownErrors.InvalidAuthorizationCode.code, message: INVALID_GRANT, details: {} };

/** A known error shown on the client's (trusted) error page: `errorCode`, `message`, `details` in the query, as the protocol does. */
function errorRedirect(errorRedirectUrl: string, error: Pick<KnownError, "code" | "message" | "details">): Response {
  const url = new URL(errorRedirectUrl);
  url.searchParams.set("errorCode", error.code);
  url.searchParams.set("message", error.message);
  url.searchParams.set("details", JSON.stringify(error.details ?? {}));
  return new Response(null, { status: 302, headers: { location: url.toString() } });
}

/** The provider's answer: query parameters, and the form fields of a form_post callback (Apple). */
function callbackParams(c: Context<AppEnv>): URLSearchParams {
  const params = new URLSearchParams(new URL(c.req.url).search);
  const body = c.get("body");
  if (c.req.method === "POST" && body && typeof body === "object" && !(body instanceof Uint8Array)) {
    for (const [key, value] of Object.entries(body)) if (typeof value === "string") params.set(key, value);
  }
  return params;
}
