import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as oidc from "openid-client";
import { CookieJar, loginAtDevProvider } from "./support/oauth-browser.js";
import { startOidcProviderProcess, type OidcProviderProcess } from "./support/oidc-provider-process.js";
import { reachablePublicUrl, startTestServer, type TestServer } from "./support/test-server.js";

/**
 * Latchkey's development OpenID provider (src/dev-oauth/), checked with a real OpenID client library
 * (openid-client) as the contract Latchkey's shared providers rely on: once as its own process (what
 * LATCHKEY_OAUTH_DEV_ISSUER points test suites at) and once as served by Latchkey under /dev/oauth.
 */

const SECRET = "MOCK-SERVER-SECRET";
/** A Latchkey callback on a base URL the provider has never heard of: any such URL is allowed. */
const REDIRECT_URI = "http://127.0.0.1:1/api/v1/auth/oauth/callback/github";

let providerProcess: OidcProviderProcess;
let latchkey: TestServer;
let production: TestServer;

beforeAll(async () => {
  [providerProcess, latchkey, production] = await Promise.all([
    startOidcProviderProcess(),
    reachablePublicUrl().then((vars) => startTestServer(vars)),
    startTestServer({ LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "x".repeat(40) }),
  ]);
});
afterAll(async () => {
  await Promise.all([providerProcess?.close(), latchkey?.close(), production?.close()]);
});

function discover(issuer: string, clientId = "github", clientAuth = oidc.ClientSecretBasic(SECRET)): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), clientId, undefined, clientAuth, { execute: [oidc.allowInsecureRequests] });
}

async function authorization(config: oidc.Configuration, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: "openid offline_access",
    prompt: "consent",
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  });
  return { url, verifier, state };
}

const unique = () => crypto.randomUUID().slice(0, 8);

describe.each([
  ["as its own process", () => providerProcess.issuer],
  ["built into Latchkey under /dev/oauth", () => `${latchkey.env.publicUrl}/dev/oauth`],
])("the development OpenID provider %s", (_, issuerUrl) => {
  it("publishes discovery for its issuer: code flow with PKCE S256 and refresh tokens", async () => {
    const config = await discover(issuerUrl());
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuerUrl());
    expect(metadata.authorization_endpoint).toBe(`${issuerUrl()}/auth`);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(["client_secret_basic", "client_secret_post"]));
  });

  it("signs in as the email chosen on its page: the code exchanges with PKCE, the ID token names the address, refresh works", async () => {
    const domain = `${unique()}.example`;
    const config = await discover(issuerUrl());
    const { url, verifier, state } = await authorization(config);

    const browser = new CookieJar();
    const { location } = await loginAtDevProvider(url.href, `Ada.Lovelace@${domain.toUpperCase()}`, { stopAt: REDIRECT_URI, jar: browser });
    const callback = new URL(location);
    expect(callback.searchParams.get("iss")).toBe(issuerUrl());
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });

    const address = `ada.lovelace@${domain}`;
    expect(tokens.claims()).toMatchObject({ iss: issuerUrl(), aud: "github", sub: address, email: address, email_verified: true, name: "Ada Lovelace" });
    expect(tokens.scope?.split(" ")).toEqual(expect.arrayContaining(["openid", "offline_access"]));
    expect(tokens.refresh_token).toBeTruthy();
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, address);
    expect(userInfo).toMatchObject({ sub: address, email: address, email_verified: true });

    // The same client with its secret in the body instead of a Basic header.
    const postConfig = await discover(issuerUrl(), "github", oidc.ClientSecretPost(SECRET));
    const refreshed = await oidc.refreshTokenGrant(postConfig, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe(address);

    // The same browser signs in again as someone else: the page asks every time.
    const again = await authorization(config);
    const next = await loginAtDevProvider(again.url.href, `grace@${domain}`, { stopAt: REDIRECT_URI, jar: browser });
    const nextTokens = await oidc.authorizationCodeGrant(config, new URL(next.location), { pkceCodeVerifier: again.verifier, expectedState: again.state });
    expect(nextTokens.claims()).toMatchObject({ sub: `grace@${domain}`, name: "Grace" });
  });

  it("answers access_denied to the client when the user cancels on its page", async () => {
    const config = await discover(issuerUrl(), "gitlab");
    const { url, state } = await authorization(config);
    const { location } = await loginAtDevProvider(url.href, "anyone@example.com", { cancel: true, stopAt: REDIRECT_URI });
    const callback = new URL(location);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(state);
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: "unused", expectedState: state })).rejects.toMatchObject({ error: "access_denied" });
  });

  it("refuses a client with the wrong secret (invalid_client), in a Basic header or in the body", async () => {
    const basic = await discover(issuerUrl(), "github", oidc.ClientSecretBasic("not-the-secret"));
    // With Basic, the error comes as a WWW-Authenticate challenge (RFC 6749 §5.2).
    await expect(oidc.refreshTokenGrant(basic, "any-refresh-token")).rejects.toMatchObject({ status: 401, cause: [{ scheme: "basic", parameters: { error: "invalid_client" } }] });
    const post = await discover(issuerUrl(), "github", oidc.ClientSecretPost("not-the-secret"));
    await expect(oidc.refreshTokenGrant(post, "any-refresh-token")).rejects.toMatchObject({ status: 401, error: "invalid_client" });
  });

  it("shows an accessible sign-in page naming the provider under a strict CSP, and asks again for an invalid email", async () => {
    const config = await discover(issuerUrl(), "gitlab");
    const { url } = await authorization(config);
    const jar = new CookieJar();
    const toPage = await jar.fetch(url);
    expect(toPage.status).toBe(303);
    const pageUrl = new URL(toPage.headers.get("location")!, url);
    const page = await jar.fetch(pageUrl);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    const html = await page.text();
    expect(html).toContain("<h1>Sign in to GitLab (development)</h1>");
    expect(html).toMatch(/<label for="email">Email address<\/label>\s*<input id="email" name="email" type="email" required autofocus/);
    expect(html).toContain(">Continue</button>");
    expect(html).toContain(">Cancel</button>");
    expect(html).toContain("never in production");
    expect(html).not.toMatch(/<script|src="http|href="http/);

    const action = new URL(/<form method="post" action="([^"]+)"/.exec(html)![1]!, pageUrl);
    const retry = await jar.fetch(action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ email: "not an email", action: "continue" }) });
    expect(retry.status).toBe(400);
    const again = await retry.text();
    expect(again).toContain('value="not an email" aria-invalid="true" aria-describedby="email-error"');
    expect(again).toMatch(/<p id="email-error" class="error" role="alert">[^<]*not an email address/);
  });

  it("requires PKCE and a Latchkey callback as the redirect URI", async () => {
    const config = await discover(issuerUrl());
    const withoutPkce = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: "openid", state: "s" });
    const refused = await fetch(withoutPkce, { redirect: "manual" });
    const error = new URL(refused.headers.get("location")!);
    expect(`${error.origin}${error.pathname}`).toBe(REDIRECT_URI);
    expect(error.searchParams.get("error")).toBe("invalid_request");
    expect(error.searchParams.get("error_description")).toMatch(/PKCE/);

    const { url } = await authorization(config, { redirect_uri: "http://127.0.0.1:1/somewhere-else" });
    const page = await fetch(url, { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await page.text()).toContain("invalid_redirect_uri");
  });
});

describe("the development OpenID provider inside Latchkey", () => {
  it("is not served outside dev mode", async () => {
    for (const path of ["/dev/oauth/.well-known/openid-configuration", "/dev/oauth/auth?client_id=github"]) {
      const response = await fetch(`${production.url}${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});
