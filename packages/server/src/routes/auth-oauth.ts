import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownError, KnownErrors } from "@latchkey/protocol/errors";
import { oauthAuthorizeJsonResponse, oauthAuthorizeQuery } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import { verifyAccessToken } from "../crypto/access-tokens.js";
import type { AppEnv } from "../http/context.js";
import { oauthClientProject } from "../http/oauth-client.js";
import { defineRoute } from "../http/route.js";
import { ProviderCallbackError } from "../oauth/inner-client.js";
import { findProjectProvider, providerCallbackUrl, providerClient } from "../oauth/project-providers.js";
import { consumeOuterState, createAuthorizationCode, createOuterState, pkceChallengeOf } from "../services/oauth-flow-records.js";
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
      "307 to the provider; with `hexclave_response_mode=json` (or `stack_response_mode=json`) 200 `{ location }` instead.",
    tags: TAGS,
    access: "public",
    request: { params: providerParams, query: oauthAuthorizeQuery },
    response: { status: 307, description: "A redirect to the provider's authorization page.", schema: oauthAuthorizeJsonResponse },
    errors: [
      KnownErrors.InvalidOAuthClientIdOrSecret,
      KnownErrors.InvalidPublishableClientKey,
      KnownErrors.OAuthProviderNotFoundOrNotEnabled,
      KnownErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys,
      KnownErrors.RedirectUrlNotWhitelisted,
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
      const trusted = (url: string) => isUrlTrustedForProject(env, project.id, config, url);

      let userId: string | null = null;
      if (query.token) {
        const claims = await verifyAccessToken(env, query.token, { allowAnonymous: true });
        if (claims.project_id !== project.id) throw new KnownErrors.InvalidProjectForAccessToken(project.id, claims.project_id);
        userId = claims.sub;
      } else if (query.type === "link") {
        throw new HTTPException(400, { message: "?token= query parameter is required for link type" });
      }

      if (!trusted(query.redirect_uri)) throw new KnownErrors.RedirectUrlNotWhitelisted();
      if (query.after_callback_redirect_url && !trusted(query.after_callback_redirect_url)) throw new KnownErrors.RedirectUrlNotWhitelisted();
      // An untrusted error page is not an error now: errors are then answered here instead of redirected.
      const errorRedirectUrl = query.error_redirect_url ?? query.error_redirect_uri ?? null;

      const innerCodeVerifier = randomBytes(32).toString("base64url");
      const state = await createOuterState(db, project.id, {
        providerConfigId: provider.configId,
        type: query.type,
        redirectUri: query.redirect_uri,
        clientState: query.state,
        codeChallenge: query.code_challenge,
        userId,
        providerScope: query.provider_scope ?? null,
        errorRedirectUrl: errorRedirectUrl && trusted(errorRedirectUrl) ? errorRedirectUrl : null,
        afterCallbackRedirectUrl: query.after_callback_redirect_url ?? null,
        innerCodeVerifier,
      });
      const location = (
        await providerApi.authorizationUrl({
          redirectUri: providerCallbackUrl(env, provider.configId),
          state,
          codeChallenge: pkceChallengeOf(innerCodeVerifier),
          extraScope: query.provider_scope,
        })
      ).toString();
      if (query.hexclave_response_mode === "json" || query.stack_response_mode === "json") return c.json({ location }, 200);
      return c.redirect(location, 307);
    },
  }),
  ...(["get", "post"] as const).map((method) =>
    defineRoute({
      method,
      path: "/auth/oauth/callback/:provider_id",
      summary: method === "get" ? "OAuth provider callback" : "OAuth provider callback (form_post)",
      description: "Where providers send the user back. Redirects to the client's redirect_uri with `code` and `state`, or to its error URL.",
      tags: TAGS,
      access: "public",
      request: { params: providerParams },
      looseQuery: true,
      response: { status: 302, description: "A redirect to the client's redirect_uri.", schema: z.null() },
      errors: [
        KnownErrors.OuterOAuthTimeout,
        KnownErrors.OAuthProviderAccessDenied,
        KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser,
        KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse,
        KnownErrors.SignUpNotEnabled,
      ],
      handler: (c) => oauthCallback(c),
    }),
  ),
];

async function oauthCallback(c: Context<AppEnv>): Promise<Response> {
  const { db, env } = c.get("deps");
  const params = callbackParams(c);
  const state = params.get("state");
  const consumed = state ? await consumeOuterState(db, state) : { status: "unknown" as const };
  if (consumed.status === "unknown") throw new HTTPException(400, { message: "Invalid OAuth cookie. Please try signing in again." });
  if (consumed.status === "expired") throw new KnownErrors.OuterOAuthTimeout();
  const { info } = consumed;
  const project = await getProject(db, consumed.projectId);
  const config = renderProjectConfig(project.config_override as ConfigObject);
  const provider = findProjectProvider(config, info.providerConfigId);
  try {
    if (!provider) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
    let answer;
    try {
      answer = await providerClient(env, config, provider).callback({
        redirectUri: providerCallbackUrl(env, provider.configId),
        params,
        state: state!,
        codeVerifier: info.innerCodeVerifier,
      });
    } catch (error) {
      if (!(error instanceof ProviderCallbackError)) throw error;
      if (error.kind === "access_denied") throw new KnownErrors.OAuthProviderAccessDenied();
      c.get("log").warn({ err: error, provider: provider.configId }, "OAuth provider callback failed");
      if (error.kind === "invalid_grant") throw new HTTPException(400, { message: "Inner OAuth callback failed due to invalid grant. Please try again." });
      if (error.kind === "invalid_client") {
        throw new HTTPException(400, { message: "Invalid client credentials for this OAuth provider. Please ensure the configuration in the Stack Auth dashboard is correct." });
      }
      throw new HTTPException(502, { message: "The OAuth provider could not be reached or gave an answer that could not be used. Please try again." });
    }
    const outcome = await applyProviderAnswer(db, env, project, provider, info, answer);
    const code = await createAuthorizationCode(db, project.id, {
      userId: outcome.userId,
      redirectUri: info.redirectUri,
      codeChallenge: info.codeChallenge,
      isNewUser: outcome.isNewUser,
      afterCallbackRedirectUrl: info.afterCallbackRedirectUrl,
    });
    const target = new URL(info.redirectUri);
    target.searchParams.set("code", code);
    target.searchParams.set("state", info.clientState);
    return c.redirect(target.toString(), 302);
  } catch (error) {
    if (error instanceof KnownError && info.errorRedirectUrl) return errorRedirect(c, project.id, config, info.errorRedirectUrl, error);
    throw error;
  }
}

/** A known error shown on the client's error page: `errorCode`, `message`, `details` in the query, as the protocol does. */
function errorRedirect(c: Context<AppEnv>, projectId: string, config: ProjectConfig, errorRedirectUrl: string, error: KnownError): Response {
  if (!isUrlTrustedForProject(c.get("deps").env, projectId, config, errorRedirectUrl)) throw error;
  const url = new URL(errorRedirectUrl);
  url.searchParams.set("errorCode", error.code);
  url.searchParams.set("message", error.message);
  url.searchParams.set("details", JSON.stringify(error.details ?? {}));
  return c.redirect(url.toString(), 302);
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
