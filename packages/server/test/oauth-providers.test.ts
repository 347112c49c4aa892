import { describe, expect, it } from "vitest";
import { OAUTH_PROVIDER_IDS } from "@latchkey/protocol/schemas";
import { innerOAuthClient } from "../src/oauth/providers/index.js";
import * as profiles from "../src/oauth/providers/profiles.js";

// The twelve provider types (issue 15) with their real endpoints. No provider is reachable from the test
// machine, so this checks what Latchkey sends them (the authorization request) and how it reads what they
// answer (profile payloads as each provider documents them); the exchange itself runs on openid-client, which
// the OAuth suite drives end to end against a real OpenID provider process.

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
