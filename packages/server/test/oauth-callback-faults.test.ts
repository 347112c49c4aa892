import { KnownError as ReferenceKnownError, KnownErrors as ReferenceErrors } from "@stackframe/stack-shared";
import { describe, expect, it } from "vitest";
import { CookieJar, loginAtDevProvider } from "./support/oauth-browser.js";
import { as, clientFlow, email, ERROR_PAGE, issuer, oauthProject, server, useOAuthServerForFile, type ClientFlow } from "./oauth/oauth-fixture.js";

// Issue 30 §4: a callback with a valid state (and the browser's flow cookie) but a code the provider never gave was
// answered 502 "provider could not be reached", and the client's error page was not used. It is the reference's
// invalid grant (400, its text), shown on the client's error page when that page is trusted. The provider is the
// real OpenID provider process the OAuth suites use.
useOAuthServerForFile();

const INVALID_GRANT = "Inner OAuth callback failed due to invalid grant. Please try again.";
const cleared = (state: string) => `stack-oauth-inner-${state}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;

/** Through the provider's login as a new user, stopping at its redirect into Latchkey's callback. */
async function upToCallback(flow: ClientFlow): Promise<{ url: URL; state: string; cookie: string }> {
  const jar = new CookieJar();
  const { location } = await loginAtDevProvider(flow.authorizeUrl, email(), { stopAt: `${server.env.publicUrl}/api/v1/auth/oauth/callback/`, jar });
  const url = new URL(location);
  expect(url.searchParams.get("iss")).toBe(issuer);
  return { url, state: url.searchParams.get("state")!, cookie: jar.header(url)! };
}

async function browserCall(url: URL, cookie: string) {
  const response = await fetch(url, { redirect: "manual", headers: { cookie } });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** What an attacker or a broken client may bring back instead of the provider's own callback. */
const GARBAGE: Array<[string, (url: URL) => void]> = [
  ["a code the provider never gave", (url) => url.searchParams.set("code", "not-a-code-the-provider-issued")],
  ["no code", (url) => url.searchParams.delete("code")],
  ["an empty code", (url) => url.searchParams.set("code", "")],
  ["a made-up code and no iss", (url) => (url.searchParams.set("code", "garbage"), url.searchParams.delete("iss"))],
  ["the provider's code with another issuer", (url) => url.searchParams.set("iss", "https://issuer.example")],
  ["implicit-flow tokens and a made-up code", (url) => (url.searchParams.set("code", "garbage"), url.searchParams.set("id_token", "x.y.z"), url.searchParams.set("token", "t"))],
];

describe("a callback with a valid state and a garbage code", () => {
  it.each(GARBAGE)("with %s: redirects the invalid grant to the trusted error page, creating no one and using the flow up", async (_, spoil) => {
    const project = await oauthProject();
    const { url, state, cookie } = await upToCallback(clientFlow(project, "github"));
    spoil(url);
    const answer = await browserCall(url, cookie);
    expect([answer.status, answer.text], answer.text).toEqual([302, ""]);
    expect(answer.headers.getSetCookie()).toEqual([cleared(state)]);
    const landing = new URL(answer.headers.get("location")!);
    expect(`${landing.origin}${landing.pathname}`).toBe(ERROR_PAGE);
    expect(Object.fromEntries(landing.searchParams)).toEqual({ errorCode: "INVALID_AUTHORIZATION_CODE", message: INVALID_GRANT, details: "{}" });
    // The error page of the protocol's client library rebuilds a known error from these.
    const rebuilt = ReferenceKnownError.fromJson({ code: landing.searchParams.get("errorCode")!, message: landing.searchParams.get("message")!, details: JSON.parse(landing.searchParams.get("details")!) });
    expect(ReferenceErrors.InvalidAuthorizationCode.isInstance(rebuilt)).toBe(true);

    expect((await browserCall(url, cookie)).status).toBe(400);
    expect((await as(project, "server", "/users")).body.items).toEqual([]);
  });

  it.each([
    ["without an error page", null],
    ["with an error page the project does not trust", "https://attacker.example/error"],
  ])("answers the reference's 400 invalid-grant text %s", async (_, errorRedirect) => {
    const project = await oauthProject();
    const { url, state, cookie } = await upToCallback(clientFlow(project, "github", { errorRedirect }));
    url.searchParams.set("code", "not-a-code-the-provider-issued");
    url.searchParams.delete("iss");
    const answer = await browserCall(url, cookie);
    expect([answer.status, answer.text]).toEqual([400, INVALID_GRANT]);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("location")).toBeNull();
    expect(answer.headers.getSetCookie()).toEqual([cleared(state)]);
  });

  it("answers a flow arriving at another provider's callback with the 400 text, even with a trusted error page", async () => {
    const project = await oauthProject();
    const { url, state, cookie } = await upToCallback(clientFlow(project, "github"));
    const elsewhere = new URL(url.href.replace("/callback/github?", "/callback/gitlab?"));
    const answer = await browserCall(elsewhere, cookie);
    expect([answer.status, answer.text]).toEqual([400, INVALID_GRANT]);
    expect(answer.headers.get("location")).toBeNull();
    expect(answer.headers.getSetCookie()).toEqual([cleared(state)]);
  });
});
