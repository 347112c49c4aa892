import { createHash, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { SDK_VERSIONS, stackSdk } from "./support/stack-sdk.js";
import { CookieJar, loginAtDevProvider } from "./support/oauth-browser.js";
import {
  as,
  CALLBACK,
  clientFlow,
  codeFrom,
  email,
  exchange,
  expectErrorLanding,
  expectKnownError,
  issuer,
  loginAs,
  oauthProject,
  server,
  signInWithProvider,
  useOAuthServerForFile,
} from "./oauth/oauth-fixture.js";
import { applyProviderAnswer } from "../src/services/oauth-sign-in.js";
import { boundTo } from "../src/services/oauth-tokens.js";
import { sealText } from "../src/crypto/sealed-text.js";
import { getProject } from "../src/services/projects.js";
import { findProjectProvider } from "../src/oauth/project-providers.js";
import { renderProjectConfig, type ConfigObject } from "../src/config/project-config.js";

// OAuth sign-in, linking and connected accounts (issue 15) against a real OpenID provider process: the shared
// providers of these projects use it as LATCHKEY_OAUTH_DEV_ISSUER, whose accounts are email addresses.
useOAuthServerForFile();

const me = (project: Awaited<ReturnType<typeof oauthProject>>, accessToken: string) => as(project, "client", "/users/me", { accessToken });

describe("sign-up and sign-in with a provider", () => {
  it("signs up a new user with the provider's verified email, then signs the same user in", async () => {
    const project = await oauthProject();
    const who = email();
    const first = await signInWithProvider(project, "github", who);
    expect(first).toMatchObject({ token_type: "Bearer", is_new_user: true, after_callback_redirect_url: null });
    const user = (await me(project, first.access_token)).body;
    expect(user).toMatchObject({ primary_email: who, primary_email_verified: true, is_anonymous: false });
    // The provider's email signs in (one-time codes, password reset) when the project allows those.
    expect((await as(project, "server", `/users/${user.id}`)).body.primary_email_auth_enabled).toBe(true);
    expect(user.oauth_providers).toEqual([{ id: "github", account_id: who, email: who }]);

    const again = await signInWithProvider(project, "github", who, { afterCallback: "http://localhost:3000/dashboard" });
    expect(again).toMatchObject({ is_new_user: false, after_callback_redirect_url: "http://localhost:3000/dashboard" });
    expect((await me(project, again.access_token)).body.id).toBe(user.id);
  });

  it("answers the SDK's JSON response mode with this request in redirect mode, where the browser then gets the flow's cookie", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const response = await fetch(`${flow.authorizeUrl}&hexclave_response_mode=json&stack_response_mode=json`, { redirect: "manual" });
    expect(response.status).toBe(200);
    // A cross-origin fetch would not keep a cookie: the navigation that follows gets it.
    expect(response.headers.getSetCookie()).toEqual([]);
    const { location } = await response.json();
    expect(location).toBe(flow.authorizeUrl);
    const toProvider = await fetch(location, { redirect: "manual" });
    expect(toProvider.status).toBe(307);
    expect(toProvider.headers.getSetCookie()).toHaveLength(1);
    const target = new URL(toProvider.headers.get("location")!);
    expect(target.origin).toBe(new URL(issuer).origin);
    expect(target.searchParams.get("client_id")).toBe("github");
    // Latchkey's own state and PKCE towards the provider, never the client's.
    expect(target.searchParams.get("state")).not.toBe(flow.state);
    const token = await exchange(project, codeFrom(flow, await loginAs({ ...flow, authorizeUrl: location }, email())), flow.verifier);
    expect(token.status, token.text).toBe(200);
  });

  it("refuses bad authorize requests with the protocol's errors", async () => {
    const project = await oauthProject();
    const call = (mutate: (url: URL) => void) => {
      const url = new URL(clientFlow(project, "github").authorizeUrl);
      mutate(url);
      return api(server.url, url.pathname.replace("/api/v1", "") + url.search);
    };
    expectKnownError(await call((u) => (u.pathname = u.pathname.replace("github", "spotify"))), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    expectKnownError(await call((u) => u.searchParams.set("client_id", "no-such-project")), "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expectKnownError(await call((u) => u.searchParams.set("client_secret", "pck_wrong")), "INVALID_PUBLISHABLE_CLIENT_KEY", 401);
    expectKnownError(await call((u) => u.searchParams.set("provider_scope", "repo")), "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", 400);
    const link = await call((u) => u.searchParams.set("type", "link"));
    expect(link.status).toBe(400);
    expect(link.text).toContain("token");
    const missing = await call((u) => u.searchParams.delete("redirect_uri"));
    expect(missing.body.code).toBe("SCHEMA_ERROR");
  });

  it("refuses sign-up when the project has it off, but still signs existing users in", async () => {
    const project = await oauthProject();
    const who = email();
    const first = await signInWithProvider(project, "github", who);
    await as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: JSON.stringify({ "auth.allowSignUp": false }) } });
    expect((await signInWithProvider(project, "github", who)).is_new_user).toBe(false);
    const landing = await loginAs(clientFlow(project, "github"), email());
    expectErrorLanding(landing, "SIGN_UP_NOT_ENABLED");
    expect(first.is_new_user).toBe(true);
  });
});

describe("authorization codes and states", () => {
  it("uses a code once: of 16 parallel exchanges exactly one wins", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const code = codeFrom(flow, await loginAs(flow, email()));
    const answers = await Promise.all(Array.from({ length: 16 }, () => exchange(project, code, flow.verifier)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expectKnownError(refused, "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("binds the code to the PKCE verifier and the redirect_uri", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const code = codeFrom(flow, await loginAs(flow, email()));
    expectKnownError(await exchange(project, code, "a-verifier-that-is-not-the-one-behind-the-challenge-0123456789"), "INVALID_AUTHORIZATION_CODE", 400);
    // A failed attempt used the code up.
    expectKnownError(await exchange(project, code, flow.verifier), "INVALID_AUTHORIZATION_CODE", 400);

    const other = clientFlow(project, "github");
    const otherCode = codeFrom(other, await loginAs(other, email()));
    const elsewhere = await exchange(project, otherCode, other.verifier, "http://localhost:3000/elsewhere");
    expect([elsewhere.status, elsewhere.text]).toEqual([400, "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code."]);
  });

  it("takes the provider's callback once: a replayed state is refused", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    // The browser that started the flow, with its inner-state cookie; the first callback clears that cookie.
    const jar = new CookieJar();
    const { location: callbackUrl } = await loginAtDevProvider(flow.authorizeUrl, email(), { stopAt: `${server.env.publicUrl}/api/v1/auth/oauth/callback/`, jar });
    const cookie = jar.header(new URL(callbackUrl))!;
    const first = await jar.fetch(new URL(callbackUrl));
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toContain(CALLBACK);
    // Even with the cookie sent again, the state was used up.
    const replay = await fetch(callbackUrl, { redirect: "manual", headers: { cookie } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toBe("Invalid OAuth cookie. Please try signing in again.");
  });

  it("maps a refused inner code exchange to the protocol's invalid-grant answer", async () => {
    const project = await oauthProject();
    // Without an error page; a trusted one is sent the error (oauth-callback-faults.test.ts).
    const flow = clientFlow(project, "github", { errorRedirect: null });
    const jar = new CookieJar();
    const { location: callbackUrl } = await loginAtDevProvider(flow.authorizeUrl, email(), { stopAt: `${server.env.publicUrl}/api/v1/auth/oauth/callback/`, jar });
    const forged = new URL(callbackUrl);
    forged.searchParams.set("code", "not-a-code-the-provider-issued");
    const response = await jar.fetch(forged);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Inner OAuth callback failed due to invalid grant. Please try again.");
  });

  it("sends a user who cancels at the provider to the error page with OAUTH_PROVIDER_ACCESS_DENIED", async () => {
    const project = await oauthProject();
    expectErrorLanding(await loginAs(clientFlow(project, "github"), email(), { cancel: true }), "OAUTH_PROVIDER_ACCESS_DENIED");
    // Without an error page the error is the answer itself.
    const { response } = await loginAtDevProvider(clientFlow(project, "github", { errorRedirect: null }).authorizeUrl, email(), { cancel: true });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
  });
});

describe("account merge strategies", () => {
  async function passwordUser(project: Awaited<ReturnType<typeof oauthProject>>, who: string, verified: boolean): Promise<string> {
    const created = await as(project, "server", "/users", { body: { primary_email: who, primary_email_verified: verified, primary_email_auth_enabled: true, password: "correct horse battery" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  it("link_method links the provider to the account with that verified email", async () => {
    const project = await oauthProject({ "auth.oauth.accountMergeStrategy": "link_method" });
    const who = email();
    const userId = await passwordUser(project, who, true);
    const signedIn = await signInWithProvider(project, "github", who);
    expect(signedIn.is_new_user).toBe(false);
    const user = (await me(project, signedIn.access_token)).body;
    expect(user.id).toBe(userId);
    expect(user.has_password).toBe(true);
    expect(user.oauth_providers).toEqual([{ id: "github", account_id: who, email: who }]);
  });

  it("link_method refuses while the account's email is unverified", async () => {
    const project = await oauthProject({ "auth.oauth.accountMergeStrategy": "link_method" });
    const who = email();
    await passwordUser(project, who, false);
    const landing = await loginAs(clientFlow(project, "github"), who);
    expectErrorLanding(landing, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    expect(JSON.parse(landing.searchParams.get("details")!)).toEqual({ type: "email", contact_channel_value: who, would_work_if_email_was_verified: true });
  });

  it("never links by an email the provider did not verify", async () => {
    const project = await oauthProject({ "auth.oauth.accountMergeStrategy": "link_method" });
    const who = email();
    await passwordUser(project, who, true);
    const row = await getProject(server.db, project.projectId);
    const provider = findProjectProvider(renderProjectConfig(row.config_override as ConfigObject), "github")!;
    const outer = { providerConfigId: "github", type: "authenticate" as const, redirectUri: CALLBACK, clientState: "s", codeChallenge: "c", userId: null, providerScope: null, errorRedirectUrl: null, afterCallbackRedirectUrl: null, innerCodeVerifier: "v" };
    const answer = {
      profile: { accountId: "attacker-account", email: who, emailVerified: false, displayName: null, profileImageUrl: null },
      tokens: { accessToken: "a", refreshToken: null, expiresAt: null, scopes: [] },
    };
    await expect(applyProviderAnswer(server.db, server.env, row, provider, outer, answer)).rejects.toMatchObject({ code: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE" });
    const links = await server.db.selectFrom("oauth_accounts").select("id").where("provider_account_id", "=", "attacker-account").execute();
    expect(links).toEqual([]);
  });

  it("raise_error refuses; allow_duplicates makes a second account that cannot sign in with the email", async () => {
    const strict = await oauthProject({ "auth.oauth.accountMergeStrategy": "raise_error" });
    const who = email();
    await passwordUser(strict, who, true);
    expectErrorLanding(await loginAs(clientFlow(strict, "github"), who), "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");

    const lenient = await oauthProject({ "auth.oauth.accountMergeStrategy": "allow_duplicates" });
    const existing = await passwordUser(lenient, who, true);
    const signedIn = await signInWithProvider(lenient, "github", who);
    expect(signedIn.is_new_user).toBe(true);
    const user = (await me(lenient, signedIn.access_token)).body;
    expect(user.id).not.toBe(existing);
    expect(user.primary_email).toBe(who);
    expect((await as(lenient, "server", `/users/${user.id}`)).body.primary_email_auth_enabled).toBe(false);
  });
});

describe("linking and anonymous upgrade", () => {
  it("links a second provider account to the signed-in user, and refuses one linked elsewhere", async () => {
    const project = await oauthProject();
    const owner = await signInWithProvider(project, "github", email());
    const ownerId = (await me(project, owner.access_token)).body.id;
    const second = email();
    const linked = await signInWithProvider(project, "gitlab", second, { type: "link", token: owner.access_token, afterCallback: "http://localhost:3000/settings" });
    expect(linked).toMatchObject({ is_new_user: false, after_callback_redirect_url: "http://localhost:3000/settings" });
    const user = (await me(project, linked.access_token)).body;
    expect(user.id).toBe(ownerId);
    expect(user.oauth_providers.map((p: any) => p.id).sort()).toEqual(["github", "gitlab"]);
    // The linked account signs in to the same user.
    expect((await me(project, (await signInWithProvider(project, "gitlab", second)).access_token)).body.id).toBe(ownerId);

    const someoneElse = await signInWithProvider(project, "github", email());
    const landing = await loginAs(clientFlow(project, "gitlab", { type: "link", token: someoneElse.access_token }), second);
    expectErrorLanding(landing, "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  });

  it("upgrades the anonymous user of the request's token, keeping its id", async () => {
    const project = await oauthProject();
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", headers: project.headers("client"), body: {} });
    expect(anonymous.status).toBe(200);
    const who = email();
    const signedIn = await signInWithProvider(project, "github", who, { token: anonymous.body.access_token });
    expect(signedIn.is_new_user).toBe(true);
    const user = (await me(project, signedIn.access_token)).body;
    expect(user).toMatchObject({ id: anonymous.body.user_id, is_anonymous: false, primary_email: who });
  });
});

describe("MFA on the OAuth path", () => {
  it("answers the code exchange with an attempt code, which a TOTP code then turns into a session", async () => {
    const project = await oauthProject();
    const who = email();
    const first = await signInWithProvider(project, "github", who);
    const userId = (await me(project, first.access_token)).body.id;
    const secret = crypto.getRandomValues(new Uint8Array(20));
    expect((await as(project, "server", `/users/${userId}`, { method: "PATCH", body: { totp_secret_base64: Buffer.from(secret).toString("base64") } })).status).toBe(200);

    const flow = clientFlow(project, "github");
    const refused = await exchange(project, codeFrom(flow, await loginAs(flow, who)), flow.verifier);
    expectKnownError(refused, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
    const totp = new TOTP({ secret: new Secret({ buffer: secret.buffer }), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    const finished = await api(server.url, "/auth/mfa/sign-in", { method: "POST", headers: project.headers("client"), body: { type: "totp", totp, code: refused.body.details.attempt_code } });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.body.user_id).toBe(userId);
  });
});

describe("connected accounts", () => {
  async function userinfo(accessToken: string): Promise<Response> {
    const discovery = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
    return fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } });
  }

  it("hands out the provider's access token, refreshes it when it expires, and refuses scopes never granted", async () => {
    const project = await oauthProject();
    const who = email();
    const session = await signInWithProvider(project, "github", who);
    const first = await as(project, "client", "/connected-accounts/me/github/access-token", { method: "POST", body: {}, accessToken: session.access_token });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const info = await userinfo(first.body.access_token);
    expect(info.status).toBe(200);
    expect((await info.json()).sub).toBe(who);

    // The stored token is about to expire: the next one comes from the refresh token.
    await server.db.updateTable("oauth_tokens").set({ expires_at: new Date(Date.now() + 60_000) }).where("kind", "=", "access").execute();
    const userId = (await me(project, session.access_token)).body.id;
    const refreshed = await as(project, "server", `/connected-accounts/${userId}/github/access-token`, { method: "POST", body: { scope: "openid" } });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(201);
    expect(refreshed.body.access_token).not.toBe(first.body.access_token);
    expect((await userinfo(refreshed.body.access_token)).status).toBe(200);

    expectKnownError(
      await as(project, "client", "/connected-accounts/me/github/access-token", { method: "POST", body: { scope: "repo" }, accessToken: session.access_token }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
    expectKnownError(
      await as(project, "client", "/connected-accounts/me/gitlab/access-token", { method: "POST", body: {}, accessToken: session.access_token }),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
      400,
    );
    // The provider no longer accepts the stored refresh token (revoked there): no token can be had any more.
    await server.db.updateTable("oauth_tokens").set({ expires_at: new Date(Date.now() + 60_000) }).where("kind", "=", "access").execute();
    for (const row of await server.db.selectFrom("oauth_tokens").select(["id", "oauth_account_id"]).where("kind", "=", "refresh").execute()) {
      const sealed = sealText(server.env.serverSecret, boundTo(row.oauth_account_id, "refresh"), "a-refresh-token-the-provider-revoked");
      await server.db.updateTable("oauth_tokens").set({ sealed_token: sealed.sealed, sealing_key_id: sealed.keyId }).where("id", "=", row.id).execute();
    }
    expectKnownError(
      await as(project, "client", "/connected-accounts/me/github/access-token", { method: "POST", body: {}, accessToken: session.access_token }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
    // Tokens are sealed at rest: the database holds no token in clear.
    const stored = await server.db.selectFrom("oauth_tokens").select("sealed_token").execute();
    for (const row of stored) expect(Buffer.from(row.sealed_token).toString("latin1")).not.toContain(first.body.access_token);
  });

  it("refuses tokens of shared keys unless the server allows them", async () => {
    const { startTestServer } = await import("./support/test-server.js");
    const strictServer = await startTestServer({ LATCHKEY_OAUTH_DEV_ISSUER: issuer, LATCHKEY_PUBLIC_URL: server.env.publicUrl }, { sameDatabaseAs: server });
    try {
      const project = await oauthProject();
      const session = await signInWithProvider(project, "github", email());
      const response = await api(strictServer.url, "/connected-accounts/me/github/access-token", {
        method: "POST",
        headers: { ...project.headers("client"), "x-stack-access-token": session.access_token },
        body: {},
      });
      expectKnownError(response, "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", 400);
    } finally {
      await strictServer.close();
    }
  });
});

describe("interop: the published SDKs build the authorize URL and exchange the code", () => {
  for (const version of SDK_VERSIONS) {
    it(`@stackframe/js ${version}`, async () => {
      const project = await oauthProject();
      // Pointed at the server's public URL, as an app must be for OAuth: the authorize answer's cookie is set
      // on that host, where the provider sends the browser back.
      const app: any = stackSdk({ url: server.env.publicUrl }, project, version).client();
      const iface = app._interface;
      const verifier = randomBytes(32).toString("base64url");
      const state = randomBytes(24).toString("base64url");
      const authorizeUrl = await iface.getOAuthUrl({
        provider: "GitHub",
        redirectUrl: CALLBACK,
        errorRedirectUrl: "http://localhost:3000/handler/error",
        codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
        state,
        type: "authenticate",
        session: await app._getSession(),
      });
      const who = email();
      const { location } = await loginAtDevProvider(authorizeUrl, who);
      const landing = new URL(location);
      const result = await iface.callOAuthCallback({ oauthParams: landing.searchParams, redirectUri: CALLBACK, codeVerifier: verifier, state });
      expect(result.newUser).toBe(true);
      const user = (await me(project, result.accessToken)).body;
      expect(user.primary_email).toBe(who);
      expect(typeof result.refreshToken).toBe("string");
    });
  }
});

describe("/oauth-providers: a user's links", () => {
  async function linkedUser(project: Awaited<ReturnType<typeof oauthProject>>) {
    const who = email();
    const session = await signInWithProvider(project, "github", who);
    const user = (await me(project, session.access_token)).body;
    return { who, session, userId: user.id as string };
  }

  it("lets a client list, read, update and delete its own links, without the provider's account id", async () => {
    const project = await oauthProject();
    const { who, session, userId } = await linkedUser(project);
    const mine = { accessToken: session.access_token };
    const list = await as(project, "client", "/oauth-providers?user_id=me", mine);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      items: [{ user_id: userId, id: expect.any(String), email: who, provider_config_id: "github", type: "github", allow_sign_in: true, allow_connected_accounts: true }],
      is_paginated: false,
    });
    const linkId = list.body.items[0].id;
    expect((await as(project, "client", `/oauth-providers/me/${linkId}`, mine)).body).toEqual(list.body.items[0]);
    const updated = await as(project, "client", `/oauth-providers/me/${linkId}`, { ...mine, method: "PATCH", body: { allow_connected_accounts: false } });
    expect(updated.body).toMatchObject({ allow_sign_in: true, allow_connected_accounts: false });
    // Servers see the account id, for any user.
    const serverRead = await as(project, "server", `/oauth-providers/${userId}/${linkId}`);
    expect(serverRead.body).toMatchObject({ account_id: who, allow_connected_accounts: false });
    expect((await as(project, "client", `/oauth-providers/me/${linkId}`, { ...mine, method: "DELETE" })).body).toEqual({ success: true });
    expect((await me(project, session.access_token)).body.oauth_providers).toEqual([]);
    const gone = await as(project, "client", `/oauth-providers/me/${linkId}`, mine);
    expect(gone.status).toBe(404);
  });

  it("refuses clients other users' links", async () => {
    const project = await oauthProject();
    const alice = await linkedUser(project);
    const bob = await linkedUser(project);
    const bobsLink = (await as(project, "server", `/oauth-providers?user_id=${bob.userId}`)).body.items[0].id;
    const asAlice = { accessToken: alice.session.access_token };
    for (const [method, path, action] of [
      ["GET", `/oauth-providers?user_id=${bob.userId}`, "list"],
      ["GET", `/oauth-providers/${bob.userId}/${bobsLink}`, "read"],
      ["PATCH", `/oauth-providers/${bob.userId}/${bobsLink}`, "update"],
      ["DELETE", `/oauth-providers/${bob.userId}/${bobsLink}`, "delete"],
    ] as const) {
      const response = await as(project, "client", path, { ...asAlice, method, body: method === "PATCH" ? {} : undefined });
      expect(response.status, path).toBe(403);
      expect(response.text).toBe(`Client can only ${action} OAuth providers for their own user.`);
    }
    expect((await as(project, "client", "/oauth-providers", { method: "POST", body: {} })).status).toBe(401);
  });

  it("lets servers link accounts, one sign-in link per provider account even under 16 racing requests", async () => {
    const project = await oauthProject();
    const users = await Promise.all(Array.from({ length: 16 }, async () => (await as(project, "server", "/users", { body: {} })).body.id as string));
    const create = (userId: string, extra: Record<string, unknown> = {}) =>
      as(project, "server", "/oauth-providers", { body: { user_id: userId, provider_config_id: "github", account_id: "shared-account", email: "x@example.com", allow_sign_in: true, allow_connected_accounts: true, ...extra } });
    const answers = await Promise.all(users.map((userId) => create(userId)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 201)) expectKnownError(refused, "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", 400);
    // As a connected account only, the same provider account may be linked again.
    const loser = users.find((userId) => userId !== answers.find((a) => a.status === 201)!.body.user_id)!;
    expect((await create(loser, { allow_sign_in: false })).status).toBe(201);
    const unknown = await create(loser, { provider_config_id: "spotify" });
    expect([unknown.status, unknown.text]).toEqual([404, "OAuth provider spotify not found or not configured"]);
  });

  it("creates users with linked accounts (POST /users), which then sign in with the provider", async () => {
    const project = await oauthProject();
    const who = email();
    const created = await as(project, "server", "/users", { body: { primary_email: who, oauth_providers: [{ id: "github", account_id: who, email: who }] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.oauth_providers).toEqual([{ id: "github", account_id: who, email: who }]);
    const signedIn = await signInWithProvider(project, "github", who);
    expect(signedIn.is_new_user).toBe(false);
    expect((await me(project, signedIn.access_token)).body.id).toBe(created.body.id);
    // The SDK's server app sees the link too.
    const user: any = await stackSdk(server, project).server().getUser(created.body.id);
    const links = await user.listOAuthProviders();
    expect(links.map((l: any) => ({ type: l.type, accountId: l.accountId, allowSignIn: l.allowSignIn }))).toEqual([{ type: "github", accountId: who, allowSignIn: true }]);
  });
});
