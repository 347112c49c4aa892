import * as openid from "openid-client";
import type { OAuthProviderId } from "@latchkey/protocol/schemas";
import { ProviderCallbackError, type InnerOAuthClient, type ProviderProfile, type ProviderSettings } from "./inner-client.js";
import { exchangeCallbackCode, mapProviderErrors as mapErrors, providerTokens } from "./openid-errors.js";

type DevIssuerSettings = Extract<ProviderSettings, { kind: "dev-issuer" }>;

/** How long a discovered configuration is reused before the issuer is asked again. */
const DISCOVERY_TTL_MS = 5 * 60_000;
const SCOPE = "openid offline_access";

const discovered = new Map<string, { at: number; config: Promise<openid.Configuration> }>();

/**
 * A development OpenID issuer standing in for a provider (LATCHKEY_OAUTH_DEV_ISSUER, or the built-in one under
 * /dev/oauth): discovery at the issuer, client id = the provider type, `openid offline_access` with
 * `prompt=consent` (so a refresh token comes back), PKCE S256. Its subjects are email addresses: the account id
 * is `sub`, the email the `email` claim or else `sub`, counted as verified (the issuer is the operator's own).
 */
export function devIssuerClient(type: OAuthProviderId, settings: DevIssuerSettings): InnerOAuthClient {
  const configuration = () => discover(settings);
  return {
    type,
    async authorizationUrl(request) {
      const scope = [SCOPE, request.extraScope].filter(Boolean).join(" ");
      return openid.buildAuthorizationUrl(await configuration(), {
        redirect_uri: request.redirectUri,
        scope,
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: "S256",
        prompt: "consent",
      });
    },
    async callback(request) {
      const config = await configuration();
      const tokens = await exchangeCallbackCode(config, request);
      const claims = tokens.claims();
      if (!claims) throw new ProviderCallbackError("other", "The issuer answered without an ID token");
      const email = typeof claims.email === "string" ? claims.email : claims.sub;
      const profile: ProviderProfile = {
        accountId: claims.sub,
        email,
        emailVerified: true,
        displayName: typeof claims.name === "string" ? claims.name : null,
        profileImageUrl: typeof claims.picture === "string" ? claims.picture : null,
      };
      return { profile, tokens: providerTokens(tokens, SCOPE) };
    },
    async refresh(refreshToken) {
      const config = await configuration();
      const tokens = await mapErrors(() => openid.refreshTokenGrant(config, refreshToken));
      return providerTokens(tokens, "");
    },
  };
}

function discover(settings: DevIssuerSettings): Promise<openid.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`;
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const issuer = new URL(settings.issuer);
  // Development issuers run on plain http (localhost); real ones never do.
  const options = issuer.protocol === "http:" ? { execute: [openid.allowInsecureRequests] } : undefined;
  const config = openid.discovery(issuer, settings.clientId, settings.clientSecret, undefined, options);
  discovered.set(key, { at: Date.now(), config });
  config.catch(() => discovered.delete(key));
  return config;
}
