import type { OAuthProviderId } from "@latchkey/protocol/schemas";
import type { ProviderProfile, ProviderSettings } from "../inner-client.js";
import * as profiles from "./profiles.js";
import { facebookTokenAnswer, githubTokenAnswer, invalidRequestAboutGrant, twitchTokenAnswer, type TokenAnswerFix } from "./token-quirks.js";

/**
 * The protocol's twelve provider types: their real endpoints, default scopes, client authentication, extra
 * authorization parameters, and how the profile is read after the code exchange.
 */

export type StandardSettings = Extract<ProviderSettings, { kind: "standard" }>;

/** Reads a JSON resource of the provider's API with the user's access token. */
export type FetchJson = (url: string, headers?: Record<string, string>) => Promise<any>;

export interface ProviderDefinition {
  /** The issuer its ID tokens name (OpenID providers), else the provider's origin. */
  issuer: (settings: StandardSettings) => string;
  authorizationEndpoint: (settings: StandardSettings) => string;
  tokenEndpoint: (settings: StandardSettings) => string;
  scopes: readonly string[];
  /** How the client authenticates at the token endpoint. */
  clientAuth: "client_secret_post" | "client_secret_basic";
  extraAuthorizationParams?: (settings: StandardSettings) => Record<string, string>;
  /** Where the token endpoint departs from RFC 6749 (token-quirks.ts). */
  tokenAnswerFix?: TokenAnswerFix;
  profile: (input: ProfileInput) => Promise<ProviderProfile>;
}

export interface ProfileInput {
  fetchJson: FetchJson;
  idTokenClaims: Record<string, unknown> | undefined;
  settings: StandardSettings;
  /** The callback's parameters (Apple posts the user's name there, once). */
  callbackParams: URLSearchParams;
}

const fromIdToken = async ({ idTokenClaims }: { idTokenClaims: Record<string, unknown> | undefined }) => {
  if (!idTokenClaims) throw new Error("The provider answered without an ID token");
  return profiles.oidcProfile(idTokenClaims);
};

const fixed = (value: string) => () => value;

export const PROVIDERS: Record<OAuthProviderId, ProviderDefinition> = {
  google: {
    issuer: fixed("https://accounts.google.com"),
    authorizationEndpoint: fixed("https://accounts.google.com/o/oauth2/v2/auth"),
    tokenEndpoint: fixed("https://oauth2.googleapis.com/token"),
    scopes: ["openid", "email", "profile"],
    clientAuth: "client_secret_post",
    // A refresh token comes only with offline access, and again only on consent.
    extraAuthorizationParams: () => ({ access_type: "offline", prompt: "consent" }),
    profile: fromIdToken,
  },
  github: {
    issuer: fixed("https://github.com"),
    authorizationEndpoint: fixed("https://github.com/login/oauth/authorize"),
    tokenEndpoint: fixed("https://github.com/login/oauth/access_token"),
    scopes: ["user:email"],
    clientAuth: "client_secret_post",
    tokenAnswerFix: githubTokenAnswer,
    profile: async ({ fetchJson }) => {
      const headers = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };
      const [user, emails] = await Promise.all([fetchJson("https://api.github.com/user", headers), fetchJson("https://api.github.com/user/emails", headers)]);
      return profiles.githubProfile(user, Array.isArray(emails) ? emails : []);
    },
  },
  microsoft: {
    issuer: (s) => `https://login.microsoftonline.com/${s.microsoftTenantId ?? "common"}/v2.0`,
    authorizationEndpoint: (s) => `https://login.microsoftonline.com/${encodeURIComponent(s.microsoftTenantId ?? "common")}/oauth2/v2.0/authorize`,
    tokenEndpoint: (s) => `https://login.microsoftonline.com/${encodeURIComponent(s.microsoftTenantId ?? "common")}/oauth2/v2.0/token`,
    // Not `openid`: a multi-tenant ID token names the user's tenant as issuer, which no fixed issuer matches.
    scopes: ["User.Read", "offline_access"],
    clientAuth: "client_secret_post",
    profile: async ({ fetchJson }) => profiles.microsoftProfile(await fetchJson("https://graph.microsoft.com/v1.0/me")),
  },
  facebook: {
    issuer: fixed("https://www.facebook.com"),
    authorizationEndpoint: fixed("https://www.facebook.com/v19.0/dialog/oauth"),
    tokenEndpoint: fixed("https://graph.facebook.com/v19.0/oauth/access_token"),
    scopes: ["public_profile", "email"],
    clientAuth: "client_secret_post",
    // Facebook Login for Business names a configuration instead of scopes.
    extraAuthorizationParams: (s): Record<string, string> => (s.facebookConfigId ? { config_id: s.facebookConfigId } : {}),
    tokenAnswerFix: facebookTokenAnswer,
    profile: async ({ fetchJson }) => profiles.facebookProfile(await fetchJson("https://graph.facebook.com/v19.0/me?fields=id,name,email,picture")),
  },
  spotify: {
    issuer: fixed("https://accounts.spotify.com"),
    authorizationEndpoint: fixed("https://accounts.spotify.com/authorize"),
    tokenEndpoint: fixed("https://accounts.spotify.com/api/token"),
    scopes: ["user-read-email", "user-read-private"],
    clientAuth: "client_secret_basic",
    profile: async ({ fetchJson }) => profiles.spotifyProfile(await fetchJson("https://api.spotify.com/v1/me")),
  },
  discord: {
    issuer: fixed("https://discord.com"),
    authorizationEndpoint: fixed("https://discord.com/oauth2/authorize"),
    tokenEndpoint: fixed("https://discord.com/api/oauth2/token"),
    scopes: ["identify", "email"],
    clientAuth: "client_secret_post",
    profile: async ({ fetchJson }) => profiles.discordProfile(await fetchJson("https://discord.com/api/users/@me")),
  },
  gitlab: {
    issuer: fixed("https://gitlab.com"),
    authorizationEndpoint: fixed("https://gitlab.com/oauth/authorize"),
    tokenEndpoint: fixed("https://gitlab.com/oauth/token"),
    scopes: ["read_user"],
    clientAuth: "client_secret_post",
    profile: async ({ fetchJson }) => profiles.gitlabProfile(await fetchJson("https://gitlab.com/api/v4/user")),
  },
  bitbucket: {
    issuer: fixed("https://bitbucket.org"),
    authorizationEndpoint: fixed("https://bitbucket.org/site/oauth2/authorize"),
    tokenEndpoint: fixed("https://bitbucket.org/site/oauth2/access_token"),
    scopes: ["account", "email"],
    clientAuth: "client_secret_basic",
    profile: async ({ fetchJson }) => {
      const [user, emails] = await Promise.all([fetchJson("https://api.bitbucket.org/2.0/user"), fetchJson("https://api.bitbucket.org/2.0/user/emails")]);
      return profiles.bitbucketProfile(user, Array.isArray(emails?.values) ? emails.values : []);
    },
  },
  linkedin: {
    issuer: fixed("https://www.linkedin.com/oauth"),
    authorizationEndpoint: fixed("https://www.linkedin.com/oauth/v2/authorization"),
    tokenEndpoint: fixed("https://www.linkedin.com/oauth/v2/accessToken"),
    scopes: ["openid", "profile", "email"],
    clientAuth: "client_secret_post",
    tokenAnswerFix: invalidRequestAboutGrant,
    profile: fromIdToken,
  },
  apple: {
    issuer: fixed("https://appleid.apple.com"),
    authorizationEndpoint: fixed("https://appleid.apple.com/auth/authorize"),
    tokenEndpoint: fixed("https://appleid.apple.com/auth/token"),
    scopes: ["name", "email"],
    // The client secret is the JWT Apple's documentation has the developer sign.
    clientAuth: "client_secret_post",
    // Asking for name or email makes Apple post the answer back as a form (hence POST callbacks).
    extraAuthorizationParams: () => ({ response_mode: "form_post" }),
    profile: async ({ idTokenClaims, callbackParams }) => {
      if (!idTokenClaims) throw new Error("Apple answered without an ID token");
      return profiles.appleProfile(idTokenClaims, callbackParams.get("user"));
    },
  },
  x: {
    issuer: fixed("https://twitter.com"),
    authorizationEndpoint: fixed("https://twitter.com/i/oauth2/authorize"),
    tokenEndpoint: fixed("https://api.twitter.com/2/oauth2/token"),
    scopes: ["users.read", "tweet.read", "offline.access"],
    clientAuth: "client_secret_basic",
    tokenAnswerFix: invalidRequestAboutGrant,
    profile: async ({ fetchJson }) => profiles.xProfile(await fetchJson("https://api.twitter.com/2/users/me?user.fields=profile_image_url")),
  },
  twitch: {
    issuer: fixed("https://id.twitch.tv/oauth2"),
    authorizationEndpoint: fixed("https://id.twitch.tv/oauth2/authorize"),
    tokenEndpoint: fixed("https://id.twitch.tv/oauth2/token"),
    scopes: ["user:read:email"],
    clientAuth: "client_secret_post",
    tokenAnswerFix: twitchTokenAnswer,
    // Helix wants the app's client id beside the user's token.
    profile: async ({ fetchJson, settings }) => profiles.twitchProfile(await fetchJson("https://api.twitch.tv/helix/users", { "client-id": settings.clientId })),
  },
};
