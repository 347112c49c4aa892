import { describe, expect, it } from "vitest";
import { api, expectProtocolInvariants, type ApiResponse } from "./support/api.js";
import { CookieJar, loginAtDevProvider } from "./support/oauth-browser.js";
import { startTestServer } from "./support/test-server.js";
import { as, CALLBACK, clientFlow, codeFrom, email, exchange, issuer, oauthProject, server, useOAuthServerForFile, type ClientFlow } from "./oauth/oauth-fixture.js";

// Issue 29 §2: an OAuth flow finishes only in the browser that started it (login-CSRF defence). The authorize answer
// sets `stack-oauth-inner-<state>` on the server's origin; the callback needs it, clears it every time, and only then
// looks at the flow. Texts, statuses and cookie strings are the reference server's, byte for byte.
useOAuthServerForFile();

const COOKIE_NOT_FOUND = "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again";
const INVALID_COOKIE = "Invalid OAuth cookie. Please try signing in again.";
const INVALID_GRANT = "Inner OAuth callback failed due to invalid grant. Please try again.";
const cleared = (state: string) => `stack-oauth-inner-${state}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
const callbackBase = (provider: string) => `${server.env.publicUrl}/api/v1/auth/oauth/callback/${provider}`;

/** A browser's request, redirects not followed, with exactly the Cookie header given (or none). */
async function browserCall(url: string, init: { cookie?: string; method?: string; form?: URLSearchParams } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = init.cookie ? { cookie: init.cookie } : {};
  if (init.form) headers["content-type"] = "application/x-www-form-urlencoded";
  const response = await fetch(url, { method: init.method ?? "GET", redirect: "manual", headers, body: init.form?.toString() });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a text answer
  }
  expectProtocolInvariants(response, body);
  return { status: response.status, headers: response.headers, body, text };
}

/** Through the provider's login as a new user, stopping at its redirect into Latchkey's callback. */
async function upToCallback(flow: ClientFlow): Promise<{ url: URL; state: string; cookie: string }> {
  const jar = new CookieJar();
  const { location } = await loginAtDevProvider(flow.authorizeUrl, email(), { stopAt: `${server.env.publicUrl}/api/v1/auth/oauth/callback/`, jar });
  const url = new URL(location);
  return { url, state: url.searchParams.get("state")!, cookie: jar.header(url)! };
}

function expectText(response: ApiResponse, status: number, text: string): void {
  expect([response.status, response.text]).toEqual([status, text]);
  expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
}

describe("authorize: one cookie that binds the flow", () => {
  it("answers 307 to the provider with exactly one cookie, named after the state the provider gets, for 600 s, HttpOnly, no SameSite", async () => {
    const project = await oauthProject();
    const before = Date.now();
    const response = await fetch(clientFlow(project, "github").authorizeUrl, { redirect: "manual" });
    const after = Date.now();
    expect(response.status).toBe(307);
    const state = new URL(response.headers.get("location")!).searchParams.get("state")!;
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const expires = /; Expires=([^;]+);/.exec(cookies[0]!)![1]!;
    expect(cookies[0]).toBe(`stack-oauth-inner-${state}=true; Path=/; Expires=${expires}; Max-Age=600; HttpOnly`);
    // An HTTP date (whole seconds) ten minutes after the answer.
    expect(expires).toBe(new Date(Date.parse(expires)).toUTCString());
    expect(Date.parse(expires)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 600_000);
    expect(Date.parse(expires)).toBeLessThanOrEqual(after + 600_000);
  });

  it("marks the cookie Secure when the server's public URL is https", async () => {
    const https = await startTestServer({ LATCHKEY_PUBLIC_URL: "https://auth.example.test", LATCHKEY_OAUTH_DEV_ISSUER: issuer }, { sameDatabaseAs: server });
    try {
      const project = await oauthProject();
      const url = new URL(clientFlow(project, "github").authorizeUrl);
      const response = await fetch(`${https.url}${url.pathname}${url.search}`, { redirect: "manual" });
      expect(response.status).toBe(307);
      const [cookie, ...more] = response.headers.getSetCookie();
      expect(more).toEqual([]);
      expect(cookie).toMatch(/^stack-oauth-inner-[0-9a-z]+=true; Path=\/; Expires=[^;]+ GMT; Max-Age=600; Secure; HttpOnly$/);
    } finally {
      await https.close();
    }
  });

  it("sends an untrusted redirect_uri to the provider all the same: trust is the callback's to check", async () => {
    const project = await oauthProject();
    const response = await fetch(clientFlow(project, "github", { redirectUri: "https://evil.example/cb", errorRedirect: "https://evil.example/error" }).authorizeUrl, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.getSetCookie()).toHaveLength(1);
  });

  it("checks the syntax of redirect_uri, error_redirect_uri and error_redirect_url, one line per failed test", async () => {
    const project = await oauthProject();
    const call = (params: Record<string, string>) => {
      const url = new URL(clientFlow(project, "github").authorizeUrl);
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      return api(server.url, `${url.pathname.replace("/api/v1", "")}${url.search}`);
    };
    const expectSchemaError = (response: ApiResponse, lines: string[]) => {
      const message = `Request validation failed on GET /api/v1/auth/oauth/authorize/github:\n${lines.map((line) => `  - ${line}`).join("\n")}`;
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
      expect(response.text).toBe(JSON.stringify({ code: "SCHEMA_ERROR", details: { message }, error: message }, undefined, 2));
    };
    expectSchemaError(await call({ redirect_uri: "http://a b/cb" }), ["query.redirect_uri contains spaces", "query.redirect_uri is not a valid URL"]);
    // The URL parser takes a space in the path: only the first test fails.
    expectSchemaError(await call({ redirect_uri: "http://localhost:3000/a b" }), ["query.redirect_uri contains spaces"]);
    expectSchemaError(await call({ redirect_uri: "not-a-url" }), ["query.redirect_uri is not a valid URL"]);
    expectSchemaError(await call({ error_redirect_uri: "/relative", error_redirect_url: "x y" }), [
      "query.error_redirect_url contains spaces",
      "query.error_redirect_url is not a valid URL",
      "query.error_redirect_uri is not a valid URL",
    ]);
  });
});

describe("callback: only the browser that started the flow", () => {
  it("refuses a callback without the cookie, or with another value, and the flow stays for the browser that has it", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const { url, state, cookie } = await upToCallback(flow);
    for (const other of [undefined, `stack-oauth-inner-${state}=false`, `stack-oauth-inner-another=true`]) {
      const refused = await browserCall(url.href, { cookie: other });
      expectText(refused, 400, COOKIE_NOT_FOUND);
      expect(refused.headers.getSetCookie()).toEqual([cleared(state)]);
    }
    const landed = await browserCall(url.href, { cookie });
    expect(landed.status).toBe(303);
    expect(landed.headers.getSetCookie()).toEqual([cleared(state)]);
    const token = await exchange(project, codeFrom(flow, new URL(landed.headers.get("location")!)), flow.verifier);
    expect(token.status, token.text).toBe(200);
  });

  it("refuses a cookie that names no flow, with or without a state, and clears it", async () => {
    const known = await browserCall(`${callbackBase("github")}?state=never-issued&code=c`, { cookie: "stack-oauth-inner-never-issued=true" });
    expectText(known, 400, INVALID_COOKIE);
    expect(known.headers.getSetCookie()).toEqual([cleared("never-issued")]);
    // No state at all is the empty one.
    const none = await browserCall(`${callbackBase("github")}?code=c`, { cookie: "stack-oauth-inner-=true" });
    expectText(none, 400, INVALID_COOKIE);
    expect(none.headers.getSetCookie()).toEqual([cleared("")]);
    const noCookie = await browserCall(`${callbackBase("github")}`);
    expectText(noCookie, 400, COOKIE_NOT_FOUND);
    expect(noCookie.headers.getSetCookie()).toEqual([cleared("")]);
    // A state that cannot name a cookie sets none (it would split the header).
    const odd = await browserCall(`${callbackBase("github")}?state=${encodeURIComponent("a; Domain=evil.example")}`);
    expectText(odd, 400, COOKIE_NOT_FOUND);
    expect(odd.headers.getSetCookie()).toEqual([]);
  });

  it("takes the state from the query before a form body's", async () => {
    const project = await oauthProject();
    const { url, state, cookie } = await upToCallback(clientFlow(project, "github"));
    const form = new URLSearchParams(url.search);
    const refused = await browserCall(`${callbackBase("github")}?state=from-the-query`, { method: "POST", form, cookie });
    expectText(refused, 400, COOKIE_NOT_FOUND);
    expect(refused.headers.getSetCookie()).toEqual([cleared("from-the-query")]);
    const posted = await browserCall(callbackBase("github"), { method: "POST", form, cookie });
    expect(posted.status, posted.text).toBe(303);
    expect(posted.headers.getSetCookie()).toEqual([cleared(state)]);
  });

  it("refuses a flow arriving at another provider's callback as an invalid grant, and uses it up", async () => {
    const project = await oauthProject({
      "auth.oauth.providers.spotify": { type: "spotify", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
      "auth.oauth.providers.microsoft": { type: "microsoft", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
    });
    // With the client's trusted error page, which this error never goes to (oauth-callback-faults.test.ts).
    const { url, state, cookie } = await upToCallback(clientFlow(project, "spotify"));
    expect(url.pathname).toBe("/api/v1/auth/oauth/callback/spotify");
    const elsewhere = await browserCall(`${callbackBase("microsoft")}${url.search}`, { cookie });
    expectText(elsewhere, 400, INVALID_GRANT);
    expect(elsewhere.headers.getSetCookie()).toEqual([cleared(state)]);
    expectText(await browserCall(url.href, { cookie }), 400, INVALID_COOKIE);
    expect((await as(project, "server", "/users")).body.items).toEqual([]);
  });

  it("answers success with 303 to the redirect_uri without its fragment, with the client's state and a body {}", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github", { redirectUri: `${CALLBACK}?tab=1#section` });
    const { url, state, cookie } = await upToCallback(flow);
    const landed = await browserCall(url.href, { cookie });
    expect(landed.status).toBe(303);
    expect(landed.text).toBe("{}");
    expect(landed.headers.getSetCookie()).toEqual([cleared(state)]);
    const location = landed.headers.get("location")!;
    const code = new URL(location).searchParams.get("code")!;
    expect(location).toBe(`${CALLBACK}?tab=1&code=${code}&state=${flow.state}`);
    // The code belongs to the redirect_uri without its fragment.
    const token = await exchange(project, code, flow.verifier, `${CALLBACK}?tab=1`);
    expect(token.status, token.text).toBe(200);
  });
});

describe("callback: the redirect URI is trusted by scheme, host and port", () => {
  it("applies the trusted domains' wildcards and ports, ignores their paths, and allows localhost only when the project does", async () => {
    const project = await oauthProject({
      "domains.allowLocalhost": false,
      "domains.trustedDomains.shop": { baseUrl: "https://app.example.com/shop", handlerPath: "/handler" },
      "domains.trustedDomains.one": { baseUrl: "https://*.example.org", handlerPath: "/handler" },
      "domains.trustedDomains.any": { baseUrl: "https://**.example.net", handlerPath: "/handler" },
      "domains.trustedDomains.port": { baseUrl: "https://ported.example.com:8443", handlerPath: "/handler" },
    });
    const cases: [string, boolean][] = [
      ["https://app.example.com/handler/oauth-callback", true],
      ["https://a.example.org/cb", true],
      ["https://a.b.example.org/cb", false],
      ["https://a.b.example.net/cb", true],
      ["https://ported.example.com:8443/cb", true],
      ["https://ported.example.com/cb", false],
      ["http://ported.example.com:8443/cb", false],
      ["http://localhost:3000/cb", false],
    ];
    for (const [redirectUri, trusted] of cases) {
      const { url, cookie } = await upToCallback(clientFlow(project, "github", { redirectUri, errorRedirect: null }));
      const answer = await browserCall(url.href, { cookie });
      if (trusted) {
        expect(answer.status, redirectUri).toBe(303);
        expect(answer.headers.get("location")!.startsWith(`${redirectUri}?code=`), redirectUri).toBe(true);
      } else {
        expect(answer.status, redirectUri).toBe(400);
        expect(answer.body, redirectUri).toMatchObject({ code: "REDIRECT_URL_NOT_WHITELISTED" });
      }
    }
    // Four trusted redirect URIs, four new users: the refused callbacks made none.
    expect((await as(project, "server", "/users")).body.items).toHaveLength(4);
  });
});
