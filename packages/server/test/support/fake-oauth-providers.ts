import type { MockAgent } from "undici";
import { FakeProvider, idTokenSigner } from "./fake-oauth-provider.js";

export type FakedProviderType = "github" | "google" | "discord" | "microsoft" | "twitch" | "apple" | "x" | "linkedin" | "facebook" | "gitlab" | "bitbucket" | "spotify";

/**
 * A fake of each OAuth provider's real hosts (oauth-own-keys.test.ts), answering on `agent` as the provider's
 * documentation says it does: its token endpoint with its client authentication and refusal dialect, its
 * profile API or ID token. Each spec cites the page it follows.
 */
export async function fakeProviders(agent: MockAgent): Promise<Record<FakedProviderType, FakeProvider>> {
  const fakes = {} as Record<FakedProviderType, FakeProvider>;
  fakes.github = new FakeProvider(agent, {
    type: "github",
    clientId: "Iv1.own-github-client",
    clientSecret: "own-github-secret",
    authorizeEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    clientAuth: "post",
    formUnlessAcceptJson: true,
    // https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#2-users-are-redirected-back-to-your-site-by-github
    tokens: ({ accessToken }, grant) => ({ access_token: accessToken, token_type: "bearer", scope: grant.scope.split(" ").join(",") }),
    // https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors
    refusedGrant: { status: 200, body: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired.", error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code" } },
    refusedClient: { status: 200, body: { error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect." } },
    api: {
      // GitHub refuses API requests without a User-Agent (https://docs.github.com/en/rest/using-the-rest-api/getting-started-with-the-rest-api#user-agent).
      "https://api.github.com/user": (account, request) => (request.headers.get("user-agent") ? { status: 200, body: account.user } : { status: 403, body: { message: "Request forbidden by administrative rules." } }),
      "https://api.github.com/user/emails": (account, request) => (request.headers.get("user-agent") ? { status: 200, body: account.emails } : { status: 403, body: {} }),
    },
  });

  const google = await idTokenSigner("https://accounts.google.com");
  fakes.google = new FakeProvider(agent, {
    type: "google",
    clientId: "1234567890-own.apps.googleusercontent.com",
    clientSecret: "GOCSPX-own-google-secret",
    authorizeEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenEndpoint: "https://oauth2.googleapis.com/token",
    clientAuth: "post",
    // https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code
    // (A refresh answers without `refresh_token` and `id_token` unless asked: https://developers.google.com/identity/protocols/oauth2/web-server#offline)
    tokens: ({ accessToken, refreshToken, idToken }, grant) => ({
      access_token: accessToken,
      expires_in: 3599,
      ...(idToken ? { refresh_token: refreshToken, id_token: idToken } : {}),
      scope: grant.scope.replace("email", "https://www.googleapis.com/auth/userinfo.email").replace("profile", "https://www.googleapis.com/auth/userinfo.profile"),
      token_type: "Bearer",
    }),
    idToken: (issued, grant) => google.sign(issued, { ...grant, account: { ...grant.account, claims: { azp: grant.clientId, ...grant.account.claims } } }),
    refusedGrant: { status: 400, body: { error: "invalid_grant", error_description: "Bad Request" } },
    refusedClient: { status: 401, body: { error: "invalid_client", error_description: "Unauthorized" } },
    documents: {
      "https://accounts.google.com/.well-known/openid-configuration": {
        issuer: "https://accounts.google.com",
        authorization_endpoint: "https://accounts.google.com/o/oauth2/v2/auth",
        token_endpoint: "https://oauth2.googleapis.com/token",
        userinfo_endpoint: "https://openidconnect.googleapis.com/v1/userinfo",
        jwks_uri: "https://www.googleapis.com/oauth2/v3/certs",
        response_types_supported: ["code", "token", "id_token", "code token", "code id_token", "token id_token", "code token id_token", "none"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "email", "profile"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
        code_challenge_methods_supported: ["plain", "S256"],
        grant_types_supported: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
      },
      "https://www.googleapis.com/oauth2/v3/certs": google.jwks,
    },
    callbackExtras: (grant) => ({ scope: grant.scope, authuser: "0", prompt: "consent" }),
  });

  fakes.discord = new FakeProvider(agent, {
    type: "discord",
    clientId: "1100000000000000001",
    clientSecret: "own-discord-secret",
    authorizeEndpoint: "https://discord.com/oauth2/authorize",
    tokenEndpoint: "https://discord.com/api/oauth2/token",
    clientAuth: "post",
    // https://discord.com/developers/docs/topics/oauth2#authorization-code-grant-access-token-response
    tokens: ({ accessToken, refreshToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 604800, refresh_token: refreshToken, scope: "identify email" }),
    refusedGrant: { status: 400, body: { error: "invalid_grant", error_description: 'Invalid "code" in request.' } },
    refusedClient: { status: 401, body: { error: "invalid_client" } },
    api: { "https://discord.com/api/users/@me": (account) => ({ status: 200, body: account }) },
  });

  fakes.microsoft = new FakeProvider(agent, {
    type: "microsoft",
    clientId: "6731de76-14a6-49ae-97bc-6eba6914391e",
    clientSecret: "own-microsoft-secret",
    authorizeEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    clientAuth: "post",
    // https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-auth-code-flow#successful-response-2
    tokens: ({ accessToken, refreshToken }) => ({ token_type: "Bearer", scope: "User.Read", expires_in: 3599, ext_expires_in: 3599, access_token: accessToken, refresh_token: refreshToken }),
    refusedGrant: { status: 400, body: { error: "invalid_grant", error_description: "AADSTS70000: The provided value for the 'code' parameter is not valid.", error_codes: [70000] } },
    refusedClient: { status: 401, body: { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided.", error_codes: [7000215] } },
    api: { "https://graph.microsoft.com/v1.0/me": (account) => ({ status: 200, body: account }) },
  });

  fakes.twitch = new FakeProvider(agent, {
    type: "twitch",
    clientId: "hof5gwx0su6owfnys0nyan9c87zr6t",
    clientSecret: "own-twitch-secret",
    authorizeEndpoint: "https://id.twitch.tv/oauth2/authorize",
    tokenEndpoint: "https://id.twitch.tv/oauth2/token",
    clientAuth: "post",
    // https://dev.twitch.tv/docs/authentication/getting-tokens-oauth/#authorization-code-grant-flow: `scope` is an array.
    tokens: ({ accessToken, refreshToken }) => ({ access_token: accessToken, expires_in: 14124, refresh_token: refreshToken, scope: ["user:read:email"], token_type: "bearer" }),
    refusedGrant: { status: 400, body: { status: 400, message: "Invalid authorization code" } },
    refusedClient: { status: 403, body: { status: 403, message: "invalid client secret" } },
    api: {
      // Helix wants the app's Client-Id beside the user's token (https://dev.twitch.tv/docs/api/reference/#get-users).
      "https://api.twitch.tv/helix/users": (account, request) =>
        request.headers.get("client-id") === fakes.twitch.spec.clientId ? { status: 200, body: { data: [account] } } : { status: 401, body: { error: "Unauthorized", status: 401, message: "Client ID and OAuth token do not match" } },
    },
  });

  const apple = await idTokenSigner("https://appleid.apple.com");
  fakes.apple = new FakeProvider(agent, {
    type: "apple",
    clientId: "com.example.own.signin",
    // Apple's client secret is a JWT the developer signs with their key; to Latchkey it is an opaque string.
    clientSecret: "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.own-apple-client-secret.sig",
    authorizeEndpoint: "https://appleid.apple.com/auth/authorize",
    tokenEndpoint: "https://appleid.apple.com/auth/token",
    clientAuth: "post",
    // https://developer.apple.com/documentation/sign_in_with_apple/tokenresponse
    tokens: ({ accessToken, refreshToken, idToken }) => ({ access_token: accessToken, expires_in: 3600, id_token: idToken, refresh_token: refreshToken, token_type: "Bearer" }),
    // https://developer.apple.com/documentation/sign_in_with_apple/errorresponse
    refusedGrant: { status: 400, body: { error: "invalid_grant", error_description: "The code has expired or has been revoked." } },
    refusedClient: { status: 400, body: { error: "invalid_client" } },
    idToken: apple.sign,
    documents: { "https://appleid.apple.com/auth/keys": apple.jwks },
  });

  fakes.x = new FakeProvider(agent, {
    type: "x",
    // Shaped like X's: the secret has `-` and `_`.
    clientId: "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ",
    clientSecret: "kd82Hs-U0lTQm9FSkVfZVpkZ_y3SFcwNjB2bGY3bS1mR2tOdy1xQ",
    authorizeEndpoint: "https://twitter.com/i/oauth2/authorize",
    tokenEndpoint: "https://api.twitter.com/2/oauth2/token",
    // Confidential clients authenticate with HTTP Basic (https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/user-access-token).
    clientAuth: "basic-raw",
    tokens: ({ accessToken, refreshToken }, grant) => ({ token_type: "bearer", expires_in: 7200, access_token: accessToken, scope: grant.scope, refresh_token: refreshToken }),
    refusedGrant: { status: 400, body: { error: "invalid_request", error_description: "Value passed for the authorization code was invalid." } },
    refusedClient: { status: 401, body: { error: "unauthorized_client", error_description: "Missing valid authorization header" } },
    // https://docs.x.com/x-api/users/user-lookup-me
    api: { "https://api.twitter.com/2/users/me": (account) => ({ status: 200, body: { data: account } }) },
  });

  const linkedin = await idTokenSigner("https://www.linkedin.com/oauth");
  fakes.linkedin = new FakeProvider(agent, {
    type: "linkedin",
    clientId: "86own7linkedin",
    clientSecret: "WPL_AP1.own-linkedin-secret",
    authorizeEndpoint: "https://www.linkedin.com/oauth/v2/authorization",
    tokenEndpoint: "https://www.linkedin.com/oauth/v2/accessToken",
    clientAuth: "post",
    // https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#validating-id-tokens
    tokens: ({ accessToken, idToken }) => ({ access_token: accessToken, expires_in: 5183999, scope: "email,openid,profile", token_type: "Bearer", id_token: idToken }),
    refusedGrant: { status: 400, body: { error: "invalid_request", error_description: "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired." } },
    refusedClient: { status: 401, body: { error: "invalid_client", error_description: "Client authentication failed" } },
    idToken: linkedin.sign,
    documents: { "https://www.linkedin.com/oauth/openid/jwks": linkedin.jwks },
  });

  fakes.facebook = new FakeProvider(agent, {
    type: "facebook",
    clientId: "1234567890123456",
    clientSecret: "own-facebook-app-secret",
    authorizeEndpoint: "https://www.facebook.com/v19.0/dialog/oauth",
    tokenEndpoint: "https://graph.facebook.com/v19.0/oauth/access_token",
    clientAuth: "post",
    // https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#confirm
    tokens: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer", expires_in: 5183944 }),
    refusedGrant: { status: 400, body: { error: { message: "This authorization code has been used.", type: "OAuthException", code: 100, fbtrace_id: "AbCdEf" } } },
    refusedClient: { status: 400, body: { error: { message: "Error validating client secret.", type: "OAuthException", code: 1, fbtrace_id: "AbCdEf" } } },
    api: {
      "https://graph.facebook.com/v19.0/me": (account, request) =>
        request.url.searchParams.get("fields") === "id,name,email,picture" ? { status: 200, body: account } : { status: 400, body: { error: { message: "fields", type: "OAuthException", code: 100 } } },
    },
  });

  fakes.gitlab = new FakeProvider(agent, {
    type: "gitlab",
    clientId: "own-gitlab-application-id",
    clientSecret: "gloas-own-gitlab-secret",
    authorizeEndpoint: "https://gitlab.com/oauth/authorize",
    tokenEndpoint: "https://gitlab.com/oauth/token",
    clientAuth: "post",
    // https://docs.gitlab.com/api/oauth2/#authorization-code-with-proof-key-for-code-exchange-pkce
    tokens: ({ accessToken, refreshToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 7200, refresh_token: refreshToken, scope: "read_user", created_at: Math.floor(Date.now() / 1000) }),
    refusedGrant: {
      status: 400,
      body: { error: "invalid_grant", error_description: "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client." },
    },
    refusedClient: { status: 401, body: { error: "invalid_client", error_description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method." } },
    // https://docs.gitlab.com/api/users/#get-the-current-user
    api: { "https://gitlab.com/api/v4/user": (account) => ({ status: 200, body: account }) },
  });

  fakes.bitbucket = new FakeProvider(agent, {
    type: "bitbucket",
    clientId: "OwnBitbucketKey12",
    clientSecret: "OwnBitbucketSecret0123456789abcd",
    authorizeEndpoint: "https://bitbucket.org/site/oauth2/authorize",
    tokenEndpoint: "https://bitbucket.org/site/oauth2/access_token",
    // `curl -X POST -u "client_id:secret"` (https://developer.atlassian.com/cloud/bitbucket/oauth-2/).
    clientAuth: "basic-raw",
    tokens: ({ accessToken, refreshToken }) => ({ access_token: accessToken, scopes: "account email", token_type: "bearer", expires_in: 7200, state: "authorization_code", refresh_token: refreshToken }),
    refusedGrant: { status: 400, body: { error: "invalid_grant", error_description: "The specified code is not valid." } },
    refusedClient: { status: 400, body: { error: "invalid_client", error_description: "Invalid OAuth client credentials" } },
    api: {
      "https://api.bitbucket.org/2.0/user": (account) => ({ status: 200, body: account.user }),
      "https://api.bitbucket.org/2.0/user/emails": (account) => ({ status: 200, body: { pagelen: 10, values: account.emails, page: 1, size: account.emails.length } }),
    },
  });

  fakes.spotify = new FakeProvider(agent, {
    type: "spotify",
    clientId: "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    clientSecret: "f9e8d7c6b5a4039281706f5e4d3c2b1a",
    authorizeEndpoint: "https://accounts.spotify.com/authorize",
    tokenEndpoint: "https://accounts.spotify.com/api/token",
    // "Authorization: Basic <base64 encoded client_id:client_secret>" (https://developer.spotify.com/documentation/web-api/tutorials/code-flow).
    clientAuth: "basic-raw",
    tokens: ({ accessToken, refreshToken }) => ({ access_token: accessToken, token_type: "Bearer", scope: "user-read-email user-read-private", expires_in: 3600, refresh_token: refreshToken }),
    refusedGrant: { status: 400, body: { error: "invalid_grant", error_description: "Invalid authorization code" } },
    refusedClient: { status: 400, body: { error: "invalid_client", error_description: "Invalid client secret" } },
    // https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile
    api: { "https://api.spotify.com/v1/me": (account) => ({ status: 200, body: account }) },
  });

  return fakes;
}
