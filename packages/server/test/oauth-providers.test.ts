import { createServer, type Server } from "node:http";
import * as openid from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_PROVIDER_IDS } from "@latchkey/protocol/schemas";
import { ProviderCallbackError, type InnerOAuthClient } from "../src/oauth/inner-client.js";
import { mapProviderErrors, providerTokens } from "../src/oauth/openid-errors.js";
import { innerOAuthClient, providerDefaultScopes } from "../src/oauth/providers/index.js";
import * as profiles from "../src/oauth/providers/profiles.js";
import { facebookTokenAnswer, fixTokenAnswers, githubTokenAnswer, invalidRequestAboutGrant, twitchTokenAnswer, type TokenAnswerFix } from "../src/oauth/providers/token-quirks.js";
import { loginAtDevProvider } from "./support/oauth-browser.js";
import { startOidcProviderProcess, type OidcProviderProcess } from "./support/oidc-provider-process.js";

// The twelve provider types (issue 15) with their real endpoints. No provider is reachable from the test
// machine, so this checks what Latchkey sends them (the authorization request), how it reads what they answer
// (profile payloads and token endpoint dialects as each provider documents them), and the whole exchange on
// openid-client against a real OpenID provider process (the development issuer path every OAuth test uses).

const request = { redirectUri: "https://auth.example.com/api/v1/auth/oauth/callback/p", state: "state-123", codeChallenge: "challenge-abc" };

const EXPECTED: Record<(typeof OAUTH_PROVIDER_IDS)[number], { endpoint: string; scopes: string[]; params?: Record<string, string> }> = {
  google: { endpoint: "https://accounts.google.com/o/oauth2/v2/auth", scopes: ["openid", "email", "profile"], params: { access_type: "offline", prompt: "consent" } },
  github: { endpoint: "https://github.com/login/oauth/authorize", scopes: ["user:email"] },
  microsoft: { endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize", scopes: ["User.Read", "offline_access"] },
  facebook: { endpoint: "https://www.facebook.com/v19.0/dialog/oauth", scopes: ["public_profile", "email"] },
  spotify: { endpoint: "https://accounts.spotify.com/authorize", scopes: ["user-read-email", "user-read-private"] },
  discord: { endpoint: "https://discord.com/oauth2/authorize", scopes: ["identify", "email"] },
  gitlab: { endpoint: "https://gitlab.com/oauth/authorize", scopes: ["read_user"] },
  bitbucket: { endpoint: "https://bitbucket.org/site/oauth2/authorize", scopes: ["account", "email"] },
  linkedin: { endpoint: "https://www.linkedin.com/oauth/v2/authorization", scopes: ["openid", "profile", "email"] },
  apple: { endpoint: "https://appleid.apple.com/auth/authorize", scopes: ["name", "email"], params: { response_mode: "form_post" } },
  x: { endpoint: "https://twitter.com/i/oauth2/authorize", scopes: ["users.read", "tweet.read", "offline.access"] },
  twitch: { endpoint: "https://id.twitch.tv/oauth2/authorize", scopes: ["user:read:email"] },
};

describe("authorization requests", () => {
  for (const type of OAUTH_PROVIDER_IDS) {
    it(`${type}: the real endpoint, the client, PKCE S256, state and scopes`, async () => {
      const client = innerOAuthClient(type, { kind: "standard", clientId: `${type}-client`, clientSecret: "secret" });
      const url = await client.authorizationUrl({ ...request, extraScope: "extra:scope" });
      const expected = EXPECTED[type];
      expect(`${url.origin}${url.pathname}`).toBe(expected.endpoint);
      const params = Object.fromEntries(url.searchParams);
      expect(params).toMatchObject({
        client_id: `${type}-client`,
        redirect_uri: request.redirectUri,
        response_type: "code",
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: "S256",
        ...expected.params,
      });
      expect(params.scope!.split(" ")).toEqual([...expected.scopes, "extra:scope"]);
      expect(providerDefaultScopes(type)).toEqual(expected.scopes);
      // The secret never travels through the browser.
      expect(url.toString()).not.toContain("secret");
    });
  }

  it("names the Microsoft tenant and the Facebook business configuration when set", async () => {
    const microsoft = await innerOAuthClient("microsoft", { kind: "standard", clientId: "c", clientSecret: "s", microsoftTenantId: "contoso.onmicrosoft.com" }).authorizationUrl(request);
    expect(microsoft.pathname).toBe("/contoso.onmicrosoft.com/oauth2/v2.0/authorize");
    const facebook = await innerOAuthClient("facebook", { kind: "standard", clientId: "c", clientSecret: "s", facebookConfigId: "cfg-42" }).authorizationUrl(request);
    expect(facebook.searchParams.get("config_id")).toBe("cfg-42");
  });
});

describe("profile mapping", () => {
  it("OpenID claims (Google, LinkedIn, Apple): verified only when the claim says so, in either spelling", () => {
    expect(profiles.oidcProfile({ sub: "1089", email: "ada@gmail.com", email_verified: true, name: "Ada Lovelace", picture: "https://lh3.googleusercontent.com/a/x" })).toEqual({
      accountId: "1089",
      email: "ada@gmail.com",
      emailVerified: true,
      displayName: "Ada Lovelace",
      profileImageUrl: "https://lh3.googleusercontent.com/a/x",
    });
    // Apple sends "true" as a string, and no name in the ID token.
    expect(profiles.oidcProfile({ sub: "001.abc", email: "x@privaterelay.appleid.com", email_verified: "true" })).toMatchObject({ emailVerified: true, displayName: null });
    expect(profiles.oidcProfile({ sub: "li-1", email: "e@x.com", email_verified: false, given_name: "Grace", family_name: "Hopper" })).toMatchObject({ emailVerified: false, displayName: "Grace Hopper" });
    expect(profiles.oidcProfile({ sub: "li-2" })).toMatchObject({ email: null, emailVerified: false });
  });

  it("Apple: the ID token's claims, with the name from the `user` field posted on the first authorization only", () => {
    const claims = { sub: "001234.5f8e", email: "k7s2@privaterelay.appleid.com", email_verified: "true", is_private_email: "true" };
    const user = JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" }, email: "k7s2@privaterelay.appleid.com" });
    expect(profiles.appleProfile(claims, user)).toEqual({ accountId: "001234.5f8e", email: "k7s2@privaterelay.appleid.com", emailVerified: true, displayName: "Ada Lovelace", profileImageUrl: null });
    expect(profiles.appleProfile(claims, null)).toMatchObject({ displayName: null, emailVerified: true });
    expect(profiles.appleProfile(claims, "not json")).toMatchObject({ displayName: null });
    expect(profiles.appleProfile({ sub: "001234.5f8e", email: "a@example.com", email_verified: "false" }, null)).toMatchObject({ emailVerified: false });
  });

  it("GitHub: the primary address from /user/emails with its verified flag; the login when there is no name", () => {
    const user = { id: 583231, login: "octocat", name: null, email: null, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4" };
    expect(profiles.githubProfile(user, [{ email: "old@example.com", primary: false, verified: true }, { email: "octocat@github.com", primary: true, verified: true }])).toEqual({
      accountId: "583231",
      email: "octocat@github.com",
      emailVerified: true,
      displayName: "octocat",
      profileImageUrl: "https://avatars.githubusercontent.com/u/583231?v=4",
    });
    expect(profiles.githubProfile(user, [{ email: "new@example.com", primary: true, verified: false }])).toMatchObject({ email: "new@example.com", emailVerified: false });
    expect(profiles.githubProfile({ ...user, email: "public@example.com" }, [])).toMatchObject({ email: "public@example.com", emailVerified: false });
  });

  it("Discord: verified flag and CDN avatar; GitLab: confirmed_at; Bitbucket: is_confirmed of the primary", () => {
    expect(profiles.discordProfile({ id: "80351110224678912", username: "nelly", global_name: "Nelly", avatar: "8342729096ea3675442027381ff50dfe", email: "nelly@discord.com", verified: true })).toEqual({
      accountId: "80351110224678912",
      email: "nelly@discord.com",
      emailVerified: true,
      displayName: "Nelly",
      profileImageUrl: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    });
    expect(profiles.discordProfile({ id: "1", username: "u", avatar: null, email: "u@x.com", verified: false })).toMatchObject({ emailVerified: false, profileImageUrl: null });
    expect(profiles.gitlabProfile({ id: 1, username: "john_smith", name: "John Smith", email: "john@example.com", confirmed_at: "2012-05-23T09:05:22Z", avatar_url: "https://gitlab.com/a.png" })).toMatchObject({
      accountId: "1",
      emailVerified: true,
      displayName: "John Smith",
    });
    expect(profiles.gitlabProfile({ id: 2, username: "x", email: "x@example.com", confirmed_at: null })).toMatchObject({ emailVerified: false, displayName: "x" });
    const bbUser = { account_id: "557058:abc", uuid: "{d301aafa}", display_name: "Sam", links: { avatar: { href: "https://bitbucket.org/avatar.png" } } };
    expect(profiles.bitbucketProfile(bbUser, [{ email: "sam@example.com", is_primary: true, is_confirmed: true }])).toEqual({
      accountId: "557058:abc",
      email: "sam@example.com",
      emailVerified: true,
      displayName: "Sam",
      profileImageUrl: "https://bitbucket.org/avatar.png",
    });
    expect(profiles.bitbucketProfile(bbUser, [{ email: "sam@example.com", is_primary: true, is_confirmed: false }])).toMatchObject({ emailVerified: false });
  });

  it("Microsoft, Facebook, Spotify: no verification claim, so never verified; X: no email; Twitch: the verified address", () => {
    expect(profiles.microsoftProfile({ id: "87d349ed", displayName: "Megan Bowen", mail: "MeganB@contoso.com", userPrincipalName: "MeganB@contoso.com" })).toEqual({
      accountId: "87d349ed",
      email: "MeganB@contoso.com",
      emailVerified: false,
      displayName: "Megan Bowen",
      profileImageUrl: null,
    });
    expect(profiles.microsoftProfile({ id: "1", displayName: "A", mail: null, userPrincipalName: "a@contoso.com" }).email).toBe("a@contoso.com");
    expect(profiles.facebookProfile({ id: "10224", name: "Pat", email: "pat@example.com", picture: { data: { url: "https://platform-lookaside.fbsbx.com/p" } } })).toMatchObject({
      email: "pat@example.com",
      emailVerified: false,
      profileImageUrl: "https://platform-lookaside.fbsbx.com/p",
    });
    expect(profiles.spotifyProfile({ id: "wizzler", display_name: "JM Wizzler", email: "email@example.com", images: [{ url: "https://i.scdn.co/image/ab67" }] })).toMatchObject({
      accountId: "wizzler",
      emailVerified: false,
      profileImageUrl: "https://i.scdn.co/image/ab67",
    });
    expect(profiles.xProfile({ data: { id: "2244994945", name: "X Dev", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/p.jpg" } })).toEqual({
      accountId: "2244994945",
      email: null,
      emailVerified: false,
      displayName: "X Dev",
      profileImageUrl: "https://pbs.twimg.com/p.jpg",
    });
    expect(profiles.twitchProfile({ data: [{ id: "141981764", login: "twitchdev", display_name: "TwitchDev", email: "dev@twitch.tv", profile_image_url: "https://static-cdn.jtvnw.net/p.png" }] })).toMatchObject({
      accountId: "141981764",
      email: "dev@twitch.tv",
      emailVerified: true,
    });
    expect(() => profiles.twitchProfile({ data: [] })).toThrow();
  });
});

describe("callbacks where the user refused", () => {
  const refusals = [
    ["google", "access_denied"],
    ["microsoft", "consent_required"],
    ["apple", "user_cancelled_authorize"],
    ["linkedin", "user_cancelled_login"],
  ] as const;
  for (const [type, error] of refusals) {
    it(`${type}: error=${error} is access_denied, before any token request`, async () => {
      const client = innerOAuthClient(type, { kind: "standard", clientId: "c", clientSecret: "s" });
      const params = new URLSearchParams({ error, state: request.state });
      await expect(client.callback({ redirectUri: request.redirectUri, params, state: request.state, codeVerifier: "v".repeat(43) })).rejects.toMatchObject({
        name: "ProviderCallbackError",
        kind: "access_denied",
      });
    });
  }

  it("a callback for another state is an invalid grant, not a refusal, before any token request", async () => {
    const client = innerOAuthClient("github", { kind: "standard", clientId: "c", clientSecret: "s" });
    const params = new URLSearchParams({ code: "c0de", state: "someone-else" });
    await expect(client.callback({ redirectUri: request.redirectUri, params, state: request.state, codeVerifier: "v".repeat(43) })).rejects.toMatchObject({ kind: "invalid_grant" });
  });
});

// Token endpoints answering in their own dialects, as their documentation shows, served locally: openid-client
// reads them through the provider's fix (token-quirks.ts) and the routes get RFC 6749's kinds.
describe("token endpoints that depart from RFC 6749", () => {
  let endpoint: Server;
  let tokenUrl: string;
  let answer: { status: number; body: unknown };

  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      req.resume().on("end", () => res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(answer.body)));
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    const address = endpoint.address();
    tokenUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/token`;
  });
  afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));

  function configuration(fix: TokenAnswerFix): openid.Configuration {
    const config = new openid.Configuration({ issuer: "https://provider.example", token_endpoint: tokenUrl }, "client", { client_secret: "secret" }, openid.ClientSecretPost("secret"));
    openid.allowInsecureRequests(config);
    fixTokenAnswers(config, fix);
    return config;
  }
  const exchange = (fix: TokenAnswerFix) =>
    mapProviderErrors(async () => {
      const callback = new URL(`${request.redirectUri}?code=c0de&state=${request.state}`);
      return providerTokens(await openid.authorizationCodeGrant(configuration(fix), callback, { pkceCodeVerifier: "v".repeat(43), expectedState: request.state }), "asked");
    });
  const refresh = (fix: TokenAnswerFix) => mapProviderErrors(async () => providerTokens(await openid.refreshTokenGrant(configuration(fix), "r"), ""));

  it("GitHub: errors sent with status 200 and GitHub's own codes", async () => {
    answer = { status: 200, body: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired.", error_uri: "https://docs.github.com/" } };
    await expect(exchange(githubTokenAnswer)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 200, body: { error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect." } };
    await expect(exchange(githubTokenAnswer)).rejects.toMatchObject({ kind: "invalid_client" });
    answer = { status: 200, body: { error: "bad_refresh_token", error_description: "The refresh token passed is incorrect or expired." } };
    await expect(refresh(githubTokenAnswer)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 200, body: { access_token: "gho_16C7e42F292c6912E7710c838347Ae178B4a", scope: "repo,user:email", token_type: "bearer" } };
    await expect(exchange(githubTokenAnswer)).resolves.toEqual({ accessToken: "gho_16C7e42F292c6912E7710c838347Ae178B4a", refreshToken: null, expiresAt: null, scopes: ["repo", "user:email"] });
  });

  it("Twitch: scopes granted as an array, refusals as { status, message }", async () => {
    answer = { status: 200, body: { access_token: "rfx2uswqe8l4g1mkagrvg5tv0ks3", expires_in: 14124, refresh_token: "5b93chm6hdve3mycz05zfzatkfdenfspp1h1ar2xxdalen01", scope: ["user:read:email"], token_type: "bearer" } };
    const tokens = await exchange(twitchTokenAnswer);
    expect(tokens).toMatchObject({ accessToken: "rfx2uswqe8l4g1mkagrvg5tv0ks3", refreshToken: "5b93chm6hdve3mycz05zfzatkfdenfspp1h1ar2xxdalen01", scopes: ["user:read:email"] });
    expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 14_000_000);
    answer = { status: 400, body: { status: 400, message: "Invalid authorization code" } };
    await expect(exchange(twitchTokenAnswer)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 400, body: { error: "Bad Request", status: 400, message: "Invalid refresh token" } };
    await expect(refresh(twitchTokenAnswer)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 403, body: { status: 403, message: "invalid client secret" } };
    await expect(exchange(twitchTokenAnswer)).rejects.toMatchObject({ kind: "invalid_client" });
  });

  it("Facebook: Graph API errors; X and LinkedIn: a refused code as invalid_request", async () => {
    answer = { status: 400, body: { error: { message: "This authorization code has been used.", type: "OAuthException", code: 100, fbtrace_id: "AbC" } } };
    await expect(exchange(facebookTokenAnswer)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 400, body: { error: { message: "Error validating client secret.", type: "OAuthException", code: 1 } } };
    await expect(exchange(facebookTokenAnswer)).rejects.toMatchObject({ kind: "invalid_client" });
    answer = { status: 400, body: { error: "invalid_request", error_description: "Value passed for the authorization code was invalid." } };
    await expect(exchange(invalidRequestAboutGrant)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 400, body: { error: "invalid_request", error_description: "Value passed for the token was invalid." } };
    await expect(refresh(invalidRequestAboutGrant)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 400, body: { error: "invalid_request", error_description: "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired." } };
    await expect(exchange(invalidRequestAboutGrant)).rejects.toMatchObject({ kind: "invalid_grant" });
    answer = { status: 400, body: { error: "invalid_request", error_description: "A required parameter \"redirect_uri\" is missing" } };
    await expect(exchange(invalidRequestAboutGrant)).rejects.toMatchObject({ kind: "other" });
  });
});

// The development issuer path, as every OAuth test of the server signs in: Latchkey's development OpenID provider
// (oidc-provider) as a process of its own, its sign-in page filled in as a browser would. Nothing here touches a
// database, so the PostgreSQL run of the suite skips it.
describe.skipIf(process.env.LATCHKEY_TEST_DB === "postgres")("a development OpenID issuer", () => {
  const redirectUri = "http://127.0.0.1:9/api/v1/auth/oauth/callback/github";
  let issuer: OidcProviderProcess;
  let client: InnerOAuthClient;

  beforeAll(async () => {
    issuer = await startOidcProviderProcess();
    client = innerOAuthClient("github", { kind: "dev-issuer", issuer: issuer.issuer, clientId: "github", clientSecret: "MOCK-SERVER-SECRET" });
  }, 60_000);
  afterAll(() => issuer?.close());

  /** Signs in at the issuer as `email` (or cancels), up to the redirect back to Latchkey's callback. */
  async function signIn(email: string, options: { cancel?: boolean } = {}) {
    const verifier = openid.randomPKCECodeVerifier();
    const state = openid.randomState();
    const url = await client.authorizationUrl({ redirectUri, state, codeChallenge: await openid.calculatePKCECodeChallenge(verifier), extraScope: "email" });
    const { location } = await loginAtDevProvider(url.href, email, { ...options, stopAt: redirectUri });
    const params = new URL(location).searchParams;
    return { url, verifier, state, params, callback: (codeVerifier = verifier) => client.callback({ redirectUri, params, state, codeVerifier }) };
  }

  it("asks for openid offline_access with consent and PKCE S256, exchanges the code and reads the profile from the ID token", async () => {
    const flow = await signIn("ada.lovelace@example.com");
    expect(Object.fromEntries(flow.url.searchParams)).toMatchObject({ client_id: "github", scope: "openid offline_access email", prompt: "consent", code_challenge_method: "S256", state: flow.state });
    // RFC 9207: the issuer names itself on the callback, and a callback naming another one is refused (an invalid
    // grant: the callback is not the provider's).
    expect(flow.params.get("iss")).toBe(issuer.issuer);
    const forged = new URLSearchParams(flow.params);
    forged.set("iss", "http://127.0.0.1:9/evil");
    await expect(client.callback({ redirectUri, params: forged, state: flow.state, codeVerifier: flow.verifier })).rejects.toMatchObject({ kind: "invalid_grant" });

    const { profile, tokens } = await flow.callback();
    expect(profile).toEqual({ accountId: "ada.lovelace@example.com", email: "ada.lovelace@example.com", emailVerified: true, displayName: "Ada Lovelace", profileImageUrl: null });
    expect(tokens.accessToken).toEqual(expect.any(String));
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.scopes).toEqual(expect.arrayContaining(["openid", "offline_access", "email"]));
    expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now());

    const fresh = await client.refresh(tokens.refreshToken!);
    expect(fresh.accessToken).toEqual(expect.any(String));
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    await expect(client.refresh("not-a-refresh-token")).rejects.toMatchObject({ name: "ProviderCallbackError", kind: "invalid_grant" });
  });

  it("refuses a replayed code and a wrong PKCE verifier as invalid_grant", async () => {
    const flow = await signIn("grace@example.com");
    await flow.callback();
    const replay = await flow.callback().catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(ProviderCallbackError);
    expect(replay).toMatchObject({ kind: "invalid_grant" });

    const other = await signIn("grace@example.com");
    await expect(other.callback(openid.randomPKCECodeVerifier())).rejects.toMatchObject({ kind: "invalid_grant" });
  });

  it("maps a user cancelling at the issuer to access_denied", async () => {
    const flow = await signIn("alan@example.com", { cancel: true });
    expect(flow.params.get("error")).toBe("access_denied");
    await expect(flow.callback()).rejects.toMatchObject({ kind: "access_denied" });
  });
});
