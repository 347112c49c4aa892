import { randomBytes, randomUUID } from "node:crypto";
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { FakeProvider, s256, type Issued, type Json, type ProviderSpec, type Received } from "./support/fake-oauth-provider.js";
import { fakeProviders, type FakedProviderType } from "./support/fake-oauth-providers.js";
import { CookieJar } from "./support/oauth-browser.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../src/services/projects.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// A project with its OWN provider keys (`isShared: false`, client id and secret): the code exchange at the
// provider's real token endpoint and the profile read from the provider's real API (or its ID token). No
// provider is reachable from the test machine, so the test server (in this process) has its outgoing fetches
// answered by undici's MockAgent, set as the global dispatcher Node's fetch (and openid-client through it)
// uses (undici 7, in node_modules through @scalar/json-magic: Node 20's built-in fetch and it share the
// global-dispatcher symbol). Each fake (support/fake-oauth-provider.ts) answers as its provider documents,
// checks the request as the provider would (client authentication, the code, redirect_uri, PKCE), and
// records what it received.

const APP_URL = "http://localhost:3000";
const CALLBACK = `${APP_URL}/handler/oauth-callback`;
const ERROR_PAGE = `${APP_URL}/handler/error`;

let server: TestServer;
/** The user's browser: it keeps the cookie each authorize answer sets, which that flow's callback needs. */
const browser = new CookieJar();
let agent: MockAgent;
let previousDispatcher: Dispatcher;


async function project(type: string, configId: string, spec: Pick<ProviderSpec, "clientId" | "clientSecret">, extra: Json = {}): Promise<TestProject> {
  return createTestProject(server, "Own keys", {
    configOverride: {
      ...NEW_PROJECT_CONFIG_OVERRIDE,
      [`auth.oauth.providers.${configId}`]: { type, isShared: false, clientId: spec.clientId, clientSecret: spec.clientSecret, allowSignIn: true, allowConnectedAccounts: true, ...extra },
    },
  });
}

interface ClientFlow {
  state: string;
  verifier: string;
  authorizeUrl: string;
}

/** The authorize URL as @stackframe/js builds it. */
function clientFlow(p: TestProject, providerId: string, options: { errorRedirect?: null } = {}): ClientFlow {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(24).toString("base64url");
  const url = new URL(`${server.env.publicUrl}/api/v1/auth/oauth/authorize/${providerId}`);
  const params = {
    client_id: p.projectId,
    client_secret: p.publishableClientKey,
    redirect_uri: CALLBACK,
    scope: "legacy",
    state,
    grant_type: "authorization_code",
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
    response_type: "code",
    type: "authenticate",
    error_redirect_url: ERROR_PAGE,
  };
  for (const [key, value] of Object.entries(params)) if (key !== "error_redirect_url" || options.errorRedirect !== null) url.searchParams.set(key, value);
  return { state, verifier, authorizeUrl: url.toString() };
}

/** Latchkey's authorize route: where it sends the browser (the provider's authorization page). */
async function toProvider(flow: ClientFlow): Promise<URL> {
  const response = await browser.fetch(new URL(flow.authorizeUrl));
  expect(response.status, await response.clone().text()).toBe(307);
  return new URL(response.headers.get("location")!);
}

/** The browser arriving back at Latchkey's callback as the provider sent it. */
function callback(back: URL): Promise<Response> {
  return browser.fetch(back);
}

function exchange(p: TestProject, code: string, verifier: string): Promise<ApiResponse> {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: CALLBACK, client_id: p.projectId, client_secret: p.publishableClientKey });
  return api(server.url, "/auth/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() });
}

function as(p: TestProject, path: string, accessToken: string, call: { method?: string; body?: unknown } = {}): Promise<ApiResponse> {
  return api(server.url, path, { method: call.method, body: call.body, headers: { ...p.headers("client"), "x-stack-access-token": accessToken } });
}

const callbackUrl = (configId: string) => `${server.env.publicUrl}/api/v1/auth/oauth/callback/${configId}`;

interface SignedIn {
  user: Json;
  session: Json;
  authorize: URL;
  tokenRequest: Received;
  apiRequests: Received[];
  issued: Issued;
}

/**
 * The whole sign-in through the real routes: authorize → the provider's page (approved as `account`) →
 * Latchkey's callback → the client's redirect_uri → /auth/oauth/token → /users/me.
 */
async function signIn(fake: FakeProvider, p: TestProject, configId: string, account: Json): Promise<SignedIn> {
  const flow = clientFlow(p, configId);
  const authorize = await toProvider(flow);
  expect(`${authorize.origin}${authorize.pathname}`).toBe(fake.spec.authorizeEndpoint);
  const params = Object.fromEntries(authorize.searchParams);
  expect(params).toMatchObject({ client_id: fake.spec.clientId, redirect_uri: callbackUrl(configId), response_type: "code", code_challenge_method: "S256" });
  // Latchkey's own state and PKCE towards the provider, not the client's; the secret stays on the server.
  expect(params.state).not.toBe(flow.state);
  expect(params.code_challenge).not.toBe(s256(flow.verifier));
  expect(authorize.toString()).not.toContain(fake.spec.clientSecret);

  const from = fake.received.length;
  const { back, code, issued } = await fake.approve(authorize, account);
  const landing = await callback(back);
  expect(landing.status, await landing.clone().text()).toBe(303);
  const target = new URL(landing.headers.get("location")!);
  expect(`${target.origin}${target.pathname}`, target.toString()).toBe(CALLBACK);
  expect(target.searchParams.get("state")).toBe(flow.state);

  // What the provider's token endpoint received: one exchange of its code, authenticated, with the verifier.
  const [tokenRequest, ...more] = fake.tokenRequests(from);
  expect(more).toEqual([]);
  expect(tokenRequest!.body.get("grant_type")).toBe("authorization_code");
  expect(tokenRequest!.body.get("code")).toBe(code);
  expect(tokenRequest!.body.get("redirect_uri")).toBe(callbackUrl(configId));
  expect(s256(tokenRequest!.body.get("code_verifier")!)).toBe(params.code_challenge);
  expect(tokenRequest!.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
  expect(tokenRequest!.headers.get("accept")).toContain("application/json");
  if (fake.spec.clientAuth === "post") {
    expect(tokenRequest!.body.get("client_id")).toBe(fake.spec.clientId);
    expect(tokenRequest!.body.get("client_secret")).toBe(fake.spec.clientSecret);
    expect(tokenRequest!.headers.get("authorization")).toBeNull();
  } else {
    expect(tokenRequest!.body.get("client_secret")).toBeNull();
  }
  const apiRequests = fake.received.slice(from).filter((r) => r !== tokenRequest);
  for (const request of apiRequests) expect(request.headers.get("authorization")).toBe(`Bearer ${issued.accessToken}`);

  const session = await exchange(p, target.searchParams.get("code")!, flow.verifier);
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const me = await as(p, "/users/me", session.body.access_token);
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  return { user: me.body, session: session.body, authorize, tokenRequest: tokenRequest!, apiRequests, issued };
}

/** Latchkey's callback with a code the provider never issued: the provider refuses it at the token endpoint. */
async function refusedExchange(fake: FakeProvider, p: TestProject, configId: string): Promise<Response> {
  // Without an error page, so the answer is the text; a trusted page is sent the error (oauth-callback-faults.test.ts).
  const authorize = await toProvider(clientFlow(p, configId, { errorRedirect: null }));
  const { back } = await fake.approve(authorize, {});
  back.searchParams.set("code", "not-a-code-the-provider-issued");
  const from = fake.received.length;
  const response = await callback(back);
  expect(fake.tokenRequests(from).map((r) => r.body.get("code"))).toEqual(["not-a-code-the-provider-issued"]);
  return response;
}

async function expectInvalidGrant(response: Response): Promise<void> {
  expect(response.status).toBe(400);
  expect(await response.text()).toBe("Inner OAuth callback failed due to invalid grant. Please try again.");
}

const fakes = {} as Record<FakedProviderType, FakeProvider>;


beforeAll(async () => {
  previousDispatcher = getGlobalDispatcher();
  agent = new MockAgent();
  // Nothing leaves the machine: only the test server itself (127.0.0.1) is reached for real.
  agent.disableNetConnect();
  agent.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  setGlobalDispatcher(agent);

  Object.assign(fakes, await fakeProviders(agent));

  server = await startTestServer({ ...(await reachablePublicUrl()), LATCHKEY_LOG_LEVEL: process.env.DEBUG_LOG ?? "silent" });
}, 60_000);

afterAll(async () => {
  await server?.close();
  setGlobalDispatcher(previousDispatcher);
  await agent?.close();
});

describe("GitHub with the project's own keys", () => {
  const account = (id: number, verified: boolean) => ({
    // https://docs.github.com/en/rest/users/users#get-the-authenticated-user, https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user
    user: { login: `octocat${id}`, id, node_id: "MDQ6VXNlcjE=", avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`, type: "User", name: "The Octocat", email: null },
    emails: [
      { email: `octo-${id}@users.noreply.github.com`, primary: false, verified: true, visibility: null },
      { email: `octocat${id}@example.com`, primary: true, verified, visibility: "public" },
    ],
  });

  it("exchanges the code at github.com, reads /user and /user/emails, and signs the user up with that profile", async () => {
    const p = await project("github", "github", fakes.github.spec);
    const id = 583231 + Math.floor(Math.random() * 1000);
    const { user, session, authorize, tokenRequest, apiRequests, issued } = await signIn(fakes.github, p, "github", account(id, true));
    expect(authorize.searchParams.get("scope")).toBe("user:email");
    expect(session.is_new_user).toBe(true);
    // GitHub's API asked as it documents: its media type and API version, with a User-Agent.
    expect(apiRequests.map((r) => r.url.href).sort()).toEqual(["https://api.github.com/user", "https://api.github.com/user/emails"]);
    for (const request of apiRequests) {
      expect(request.headers.get("accept")).toBe("application/vnd.github+json");
      expect(request.headers.get("x-github-api-version")).toBe("2022-11-28");
      expect(request.headers.get("user-agent")).toBeTruthy();
    }
    expect(tokenRequest.url.href).toBe("https://github.com/login/oauth/access_token");
    expect(user).toMatchObject({
      primary_email: `octocat${id}@example.com`,
      primary_email_verified: true,
      display_name: "The Octocat",
      profile_image_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      oauth_providers: [{ id: "github", account_id: String(id), email: `octocat${id}@example.com` }],
    });
    // The token GitHub issued is the connected account's.
    const token = await as(p, "/connected-accounts/me/github/access-token", session.access_token, { method: "POST", body: {} });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    expect(token.body.access_token).toBe(issued.accessToken);
  });

  it("keeps the primary address unverified when GitHub says it is", async () => {
    const p = await project("github", "github", fakes.github.spec);
    const id = 700000 + Math.floor(Math.random() * 1000);
    const { user } = await signIn(fakes.github, p, "github", account(id, false));
    expect(user).toMatchObject({ primary_email: `octocat${id}@example.com`, primary_email_verified: false, oauth_providers: [{ id: "github", account_id: String(id) }] });
  });

  it("maps GitHub's refusal of a code (status 200, bad_verification_code) to the protocol's invalid-grant answer", async () => {
    const p = await project("github", "github", fakes.github.spec);
    await expectInvalidGrant(await refusedExchange(fakes.github, p, "github"));
  });

  it("maps GitHub's refusal of the client secret to the invalid-client answer", async () => {
    const p = await project("github", "github", { clientId: fakes.github.spec.clientId, clientSecret: "not-the-secret" });
    const authorize = await toProvider(clientFlow(p, "github"));
    const response = await callback((await fakes.github.approve(authorize, account(1, true))).back);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^Invalid client credentials for this OAuth provider/);
  });
});

describe("Google with the project's own keys", () => {
  const claims = (sub: string, verified: boolean) => ({
    // https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload
    sub,
    email: `user-${sub}@gmail.com`,
    email_verified: verified,
    name: "Grace Hopper",
    given_name: "Grace",
    family_name: "Hopper",
    picture: `https://lh3.googleusercontent.com/a/${sub}=s96-c`,
  });

  it("exchanges the code at oauth2.googleapis.com and signs the user up from the ID token's claims", async () => {
    const p = await project("google", "google", fakes.google.spec);
    const sub = String(100000000000000000000n + BigInt(Math.floor(Math.random() * 1e9)));
    const { user, session, authorize, tokenRequest, apiRequests } = await signIn(fakes.google, p, "google", { claims: claims(sub, true) });
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");
    expect(authorize.searchParams.get("access_type")).toBe("offline");
    expect(tokenRequest.url.href).toBe("https://oauth2.googleapis.com/token");
    // Everything came in the ID token (a direct answer of the token endpoint over TLS, so its claims are
    // checked but not its signature: OpenID Connect Core §3.1.3.7); no other Google request was needed.
    expect(apiRequests).toEqual([]);
    expect(session.is_new_user).toBe(true);
    expect(user).toMatchObject({
      primary_email: `user-${sub}@gmail.com`,
      primary_email_verified: true,
      display_name: "Grace Hopper",
      profile_image_url: `https://lh3.googleusercontent.com/a/${sub}=s96-c`,
      oauth_providers: [{ id: "google", account_id: sub, email: `user-${sub}@gmail.com` }],
    });
  });

  it("refreshes the connected account's token at Google's token endpoint with the stored refresh token", async () => {
    const p = await project("google", "google", fakes.google.spec);
    const sub = String(200000000000000000000n + BigInt(Math.floor(Math.random() * 1e9)));
    const { session, issued } = await signIn(fakes.google, p, "google", { claims: claims(sub, true) });
    const first = await as(p, "/connected-accounts/me/google/access-token", session.access_token, { method: "POST", body: {} });
    expect(first.body.access_token).toBe(issued.accessToken);
    // The stored token is about to expire: the next one comes from Google's token endpoint.
    await server.db.updateTable("oauth_tokens").set({ expires_at: new Date(Date.now() + 60_000) }).where("kind", "=", "access").execute();
    const from = fakes.google.received.length;
    const refreshed = await as(p, "/connected-accounts/me/google/access-token", session.access_token, { method: "POST", body: {} });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(201);
    expect(refreshed.body.access_token).not.toBe(issued.accessToken);
    const [refresh, ...more] = fakes.google.tokenRequests(from);
    expect(more).toEqual([]);
    expect(Object.fromEntries(refresh!.body)).toMatchObject({ grant_type: "refresh_token", refresh_token: issued.refreshToken, client_id: fakes.google.spec.clientId, client_secret: fakes.google.spec.clientSecret });
  });

  it("refuses an ID token Google issued to another client", async () => {
    const p = await project("google", "google", fakes.google.spec);
    const authorize = await toProvider(clientFlow(p, "google"));
    const response = await callback((await fakes.google.approve(authorize, { claims: claims("300", true), audience: "someone-else.apps.googleusercontent.com" })).back);
    expect(response.status).toBe(502);
    expect(await api(server.url, "/users", { headers: p.headers("server") }).then((r) => r.body.items)).toEqual([]);
  });

  it("maps Google's invalid_grant to the protocol's invalid-grant answer", async () => {
    const p = await project("google", "google", fakes.google.spec);
    await expectInvalidGrant(await refusedExchange(fakes.google, p, "google"));
  });
});

describe("Discord, Microsoft and Twitch with the project's own keys", () => {
  it("Discord: /api/users/@me, the verified flag and the avatar on Discord's CDN", async () => {
    const p = await project("discord", "discord", fakes.discord.spec);
    const id = `80351110224678${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;
    // https://discord.com/developers/docs/resources/user#user-object
    const { user, authorize } = await signIn(fakes.discord, p, "discord", {
      id,
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: `nelly-${id}@discord.com`,
      flags: 64,
    });
    expect(authorize.searchParams.get("scope")).toBe("identify email");
    expect(user).toMatchObject({
      primary_email: `nelly-${id}@discord.com`,
      primary_email_verified: true,
      display_name: "Nelly",
      profile_image_url: `https://cdn.discordapp.com/avatars/${id}/8342729096ea3675442027381ff50dfe.png`,
      oauth_providers: [{ id: "discord", account_id: id }],
    });
    await expectInvalidGrant(await refusedExchange(fakes.discord, p, "discord"));
  });

  it("Microsoft: Graph /me, never counted as verified", async () => {
    const p = await project("microsoft", "microsoft", fakes.microsoft.spec);
    const id = randomUUID();
    // https://learn.microsoft.com/en-us/graph/api/user-get?view=graph-rest-1.0&tabs=http#response-1
    const { user, authorize, apiRequests } = await signIn(fakes.microsoft, p, "microsoft", {
      "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity",
      businessPhones: [],
      displayName: "Adele Vance",
      givenName: "Adele",
      surname: "Vance",
      mail: `adelev-${id}@contoso.com`,
      userPrincipalName: `AdeleV-${id}@contoso.com`,
      id,
    });
    expect(authorize.searchParams.get("scope")).toBe("User.Read offline_access");
    expect(apiRequests.map((r) => r.url.href)).toEqual(["https://graph.microsoft.com/v1.0/me"]);
    expect(user).toMatchObject({ primary_email: `adelev-${id}@contoso.com`, primary_email_verified: false, display_name: "Adele Vance", profile_image_url: null, oauth_providers: [{ id: "microsoft", account_id: id }] });
    await expectInvalidGrant(await refusedExchange(fakes.microsoft, p, "microsoft"));
  });

  it("Twitch: a scope array in the token answer, Helix /users with the Client-Id, and its own refusal dialect", async () => {
    const p = await project("twitch", "twitch", fakes.twitch.spec);
    const id = String(141981764 + Math.floor(Math.random() * 1e6));
    // https://dev.twitch.tv/docs/api/reference/#get-users
    const { user, session, apiRequests, issued } = await signIn(fakes.twitch, p, "twitch", {
      id,
      login: `twitchdev${id}`,
      display_name: "TwitchDev",
      type: "",
      broadcaster_type: "partner",
      description: "Supporting third-party developers building Twitch integrations.",
      profile_image_url: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
      email: `dev-${id}@twitch.tv`,
      created_at: "2016-12-14T20:32:28Z",
    });
    expect(apiRequests.map((r) => [r.url.href, r.headers.get("client-id")])).toEqual([["https://api.twitch.tv/helix/users", fakes.twitch.spec.clientId]]);
    expect(user).toMatchObject({
      primary_email: `dev-${id}@twitch.tv`,
      primary_email_verified: true,
      display_name: "TwitchDev",
      profile_image_url: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
      oauth_providers: [{ id: "twitch", account_id: id }],
    });
    // The granted scopes were read from Twitch's array: a connected-account token for that scope is handed out.
    const token = await as(p, "/connected-accounts/me/twitch/access-token", session.access_token, { method: "POST", body: { scope: "user:read:email" } });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    expect(token.body.access_token).toBe(issued.accessToken);
    await expectInvalidGrant(await refusedExchange(fakes.twitch, p, "twitch"));
  });
});

describe("Apple and X with the project's own keys", () => {
  it("Apple: the form_post callback, the ID token's string booleans and the name Apple posts once", async () => {
    const p = await project("apple", "apple", fakes.apple.spec);
    const sub = `001234.${randomBytes(16).toString("hex")}.0123`;
    const flow = clientFlow(p, "apple");
    const authorize = await toProvider(flow);
    expect(`${authorize.origin}${authorize.pathname}`).toBe("https://appleid.apple.com/auth/authorize");
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ client_id: fakes.apple.spec.clientId, response_mode: "form_post", scope: "name email", code_challenge_method: "S256" });
    // https://developer.apple.com/documentation/sign_in_with_apple/authenticating-users-with-sign-in-with-apple#Retrieve-the-users-information-from-Apple-ID-servers
    const claims = { sub, email: `${sub.slice(7, 17)}@privaterelay.appleid.com`, email_verified: "true", is_private_email: "true", auth_time: Math.floor(Date.now() / 1000), nonce_supported: true };
    const from = fakes.apple.received.length;
    const { back, code, issued } = await fakes.apple.approve(authorize, { claims });
    // Apple posts the answer as a form to the redirect_uri (response_mode=form_post), with the user's name the first time.
    const form = new URLSearchParams({ code, state: back.searchParams.get("state")!, user: JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" }, email: claims.email }) });
    const landing = await browser.fetch(new URL(back.pathname, back.origin), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(landing.status, await landing.clone().text()).toBe(303);
    const target = new URL(landing.headers.get("location")!);
    expect(target.searchParams.get("state")).toBe(flow.state);
    const [tokenRequest, ...more] = fakes.apple.tokenRequests(from);
    expect(more).toEqual([]);
    expect(Object.fromEntries(tokenRequest!.body)).toMatchObject({ grant_type: "authorization_code", code, client_id: fakes.apple.spec.clientId, client_secret: fakes.apple.spec.clientSecret, redirect_uri: callbackUrl("apple") });
    expect(s256(tokenRequest!.body.get("code_verifier")!)).toBe(authorize.searchParams.get("code_challenge"));
    const session = await exchange(p, target.searchParams.get("code")!, flow.verifier);
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const user = (await as(p, "/users/me", session.body.access_token)).body;
    expect(user).toMatchObject({ primary_email: claims.email, primary_email_verified: true, display_name: "Ada Lovelace", profile_image_url: null, oauth_providers: [{ id: "apple", account_id: sub }] });
    const token = await as(p, "/connected-accounts/me/apple/access-token", session.body.access_token, { method: "POST", body: {} });
    expect(token.body.access_token).toBe(issued.accessToken);
  });

  it("X: client_secret_basic, /2/users/me with the image field, no email; its invalid_request refusal is an invalid grant", async () => {
    const p = await project("x", "x", fakes.x.spec);
    const id = String(2244994945 + Math.floor(Math.random() * 1e6));
    const { user, authorize, tokenRequest, apiRequests } = await signIn(fakes.x, p, "x", { id, name: "X Dev", username: `XDevelopers${id}`, profile_image_url: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg" });
    expect(authorize.searchParams.get("scope")).toBe("users.read tweet.read offline.access");
    const basic = Buffer.from(tokenRequest.headers.get("authorization")!.replace(/^Basic /, ""), "base64").toString();
    expect(basic).toBe(`${fakes.x.spec.clientId}:${fakes.x.spec.clientSecret}`);
    expect(apiRequests.map((r) => `${r.url.pathname}?${r.url.searchParams}`)).toEqual(["/2/users/me?user.fields=profile_image_url"]);
    expect(user).toMatchObject({ primary_email: null, primary_email_verified: false, display_name: "X Dev", profile_image_url: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg", oauth_providers: [{ id: "x", account_id: id }] });
    await expectInvalidGrant(await refusedExchange(fakes.x, p, "x"));
  });
});

describe("LinkedIn, Facebook, GitLab, Bitbucket and Spotify with the project's own keys", () => {
  it("LinkedIn: the profile from the ID token; its invalid_request refusal is an invalid grant", async () => {
    const p = await project("linkedin", "linkedin", fakes.linkedin.spec);
    const sub = `782b${randomBytes(4).toString("hex")}`;
    const { user, apiRequests } = await signIn(fakes.linkedin, p, "linkedin", {
      claims: { sub, name: "John Doe", given_name: "John", family_name: "Doe", picture: "https://media.licdn.com/dms/image/C5F03AQ/profile.jpg", locale: "en-US", email: `doe-${sub}@email.com`, email_verified: true },
    });
    expect(apiRequests).toEqual([]);
    expect(user).toMatchObject({ primary_email: `doe-${sub}@email.com`, primary_email_verified: true, display_name: "John Doe", profile_image_url: "https://media.licdn.com/dms/image/C5F03AQ/profile.jpg", oauth_providers: [{ id: "linkedin", account_id: sub }] });
    await expectInvalidGrant(await refusedExchange(fakes.linkedin, p, "linkedin"));
  });

  it("Facebook: Graph /me with its fields and the nested picture, never verified; its nested refusal is an invalid grant", async () => {
    const p = await project("facebook", "facebook", fakes.facebook.spec);
    const id = String(10158000000000000n + BigInt(Math.floor(Math.random() * 1e9)));
    const picture = `https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=${id}&height=50&width=50`;
    const { user } = await signIn(fakes.facebook, p, "facebook", { id, name: "Mark Example", email: `mark-${id}@example.com`, picture: { data: { height: 50, is_silhouette: false, url: picture, width: 50 } } });
    expect(user).toMatchObject({ primary_email: `mark-${id}@example.com`, primary_email_verified: false, display_name: "Mark Example", profile_image_url: picture, oauth_providers: [{ id: "facebook", account_id: id }] });
    await expectInvalidGrant(await refusedExchange(fakes.facebook, p, "facebook"));
  });

  it("GitLab: /api/v4/user, verified once confirmed_at is set", async () => {
    const p = await project("gitlab", "gitlab", fakes.gitlab.spec);
    const id = 1000000 + Math.floor(Math.random() * 1e6);
    const { user } = await signIn(fakes.gitlab, p, "gitlab", {
      id,
      username: `john_smith${id}`,
      name: "John Smith",
      state: "active",
      avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/cd8.jpeg",
      email: `john-${id}@example.com`,
      confirmed_at: "2012-05-23T09:05:22Z",
    });
    expect(user).toMatchObject({ primary_email: `john-${id}@example.com`, primary_email_verified: true, display_name: "John Smith", profile_image_url: "https://gitlab.com/uploads/-/system/user/avatar/1/cd8.jpeg", oauth_providers: [{ id: "gitlab", account_id: String(id) }] });
    await expectInvalidGrant(await refusedExchange(fakes.gitlab, p, "gitlab"));
  });

  it("Bitbucket: HTTP Basic, /2.0/user and the primary confirmed address of /2.0/user/emails", async () => {
    const p = await project("bitbucket", "bitbucket", fakes.bitbucket.spec);
    const accountId = `557058:${randomUUID()}`;
    const { user, tokenRequest } = await signIn(fakes.bitbucket, p, "bitbucket", {
      user: { account_id: accountId, uuid: `{${randomUUID()}}`, username: "evzijst", display_name: "Erik van Zijst", links: { avatar: { href: "https://secure.gravatar.com/avatar/abc.png" } } },
      emails: [
        { email: `old-${accountId}@example.com`, is_primary: false, is_confirmed: true, type: "email" },
        { email: `erik-${accountId}@example.com`, is_primary: true, is_confirmed: true, type: "email" },
      ],
    });
    expect(tokenRequest.headers.get("authorization")).toBe(`Basic ${btoa(`${fakes.bitbucket.spec.clientId}:${fakes.bitbucket.spec.clientSecret}`)}`);
    expect(user).toMatchObject({ primary_email: `erik-${accountId}@example.com`, primary_email_verified: true, display_name: "Erik van Zijst", profile_image_url: "https://secure.gravatar.com/avatar/abc.png", oauth_providers: [{ id: "bitbucket", account_id: accountId }] });
    await expectInvalidGrant(await refusedExchange(fakes.bitbucket, p, "bitbucket"));
  });

  it("Spotify: HTTP Basic, /v1/me with its first image, never verified", async () => {
    const p = await project("spotify", "spotify", fakes.spotify.spec);
    const id = `smedjan${randomBytes(4).toString("hex")}`;
    const { user } = await signIn(fakes.spotify, p, "spotify", {
      id,
      display_name: "Smedjan",
      email: `${id}@example.com`,
      country: "SE",
      product: "premium",
      images: [{ url: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228", height: 300, width: 300 }],
    });
    expect(user).toMatchObject({ primary_email: `${id}@example.com`, primary_email_verified: false, display_name: "Smedjan", profile_image_url: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228", oauth_providers: [{ id: "spotify", account_id: id }] });
    await expectInvalidGrant(await refusedExchange(fakes.spotify, p, "spotify"));
  });
});
