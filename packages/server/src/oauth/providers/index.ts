import * as openid from "openid-client";
import type { OAuthProviderId } from "@latchkey/protocol/schemas";
import type { InnerOAuthClient, ProviderSettings, ProviderTokens } from "../inner-client.js";
import { devIssuerClient } from "../dev-issuer-client.js";
import { exchangeCallbackCode, mapProviderErrors, providerTokens } from "../openid-errors.js";
import { PROVIDERS, type StandardSettings } from "./catalog.js";
import { fixTokenAnswers } from "./token-quirks.js";

/**
 * The client for one provider entry, on openid-client (token exchange, refresh, PKCE, ID-token checks). A
 * development issuer (`dev-issuer` settings) stands in for any type; otherwise the type's real endpoints.
 */
export function innerOAuthClient(type: OAuthProviderId, settings: ProviderSettings): InnerOAuthClient {
  if (settings.kind === "dev-issuer") return devIssuerClient(type, settings);
  return standardClient(type, settings);
}

/** The scopes Latchkey asks a provider type for (its real endpoints), before any the client adds. */
export function providerDefaultScopes(type: OAuthProviderId): readonly string[] {
  return PROVIDERS[type].scopes;
}

/** The configuration openid-client works with, for a provider's fixed endpoints. */
export function providerConfiguration(type: OAuthProviderId, settings: StandardSettings): openid.Configuration {
  const provider = PROVIDERS[type];
  const auth = provider.clientAuth === "client_secret_basic" ? clientSecretBasic(settings.clientSecret) : openid.ClientSecretPost(settings.clientSecret);
  const config = new openid.Configuration(
    { issuer: provider.issuer(settings), authorization_endpoint: provider.authorizationEndpoint(settings), token_endpoint: provider.tokenEndpoint(settings) },
    settings.clientId,
    { client_secret: settings.clientSecret },
    auth,
  );
  if (provider.tokenAnswerFix) fixTokenAnswers(config, provider.tokenAnswerFix);
  return config;
}

/**
 * HTTP Basic client authentication as X, Spotify and Bitbucket document it: base64 of `id:secret`. RFC 6749
 * §2.3.1 has both form-encoded first, and openid-client's ClientSecretBasic escapes even `-`, `_` and `.`,
 * which a provider comparing the credentials without decoding them (X's documentation shows them raw; its
 * secrets hold `-` and `_`) does not recognise. encodeURIComponent leaves those as they are, and escapes
 * only what a decoding server reads back the same.
 */
function clientSecretBasic(clientSecret: string): openid.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(clientSecret)}`)}`);
  };
}

function standardClient(type: OAuthProviderId, settings: StandardSettings): InnerOAuthClient {
  const provider = PROVIDERS[type];
  const config = providerConfiguration(type, settings);
  return {
    type,
    async authorizationUrl(request) {
      const scope = [...provider.scopes, ...(request.extraScope ?? "").split(/[\s,]+/).filter(Boolean)];
      return openid.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: [...new Set(scope)].join(" "),
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: "S256",
        ...provider.extraAuthorizationParams?.(settings),
      });
    },
    async callback(request) {
      const tokens = await exchangeCallbackCode(config, request);
      const fetchJson = async (url: string, headers: Record<string, string> = {}) => {
        const response = await openid.fetchProtectedResource(config, tokens.access_token, new URL(url), "GET", undefined, new Headers({ accept: "application/json", ...headers }));
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        return response.json();
      };
      const profile = await mapProviderErrors(() => provider.profile({ fetchJson, idTokenClaims: tokens.claims() as Record<string, unknown> | undefined, settings, callbackParams: request.params }));
      return { profile, tokens: providerTokens(tokens, provider.scopes.join(" ")) };
    },
    async refresh(refreshToken): Promise<ProviderTokens> {
      return providerTokens(await mapProviderErrors(() => openid.refreshTokenGrant(config, refreshToken)), "");
    },
  };
}
