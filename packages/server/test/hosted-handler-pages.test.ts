import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PUBLIC_CLIENT_SECRET } from "@latchkey/protocol/dialects";
import { HOSTED_PAGES } from "@latchkey/protocol/hosted-pages";
import { STATIC_VERSION } from "../src/routes/static-bundles.js";
import { api } from "./support/api.js";
import { codeIn, configure, email, emailProject, expectKnownError, linkIn, post, server, signUpWithPassword, smtp, TRUSTED_ORIGIN, useServerAndSmtpForFile } from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";

/**
 * Issue 16 §5: the handler pages the server hosts for each project (routes/hosted-handler-pages.ts), the
 * keyless client they are, the mail links that may lead to them, and the session hand-off back to the app.
 */
useServerAndSmtpForFile();

/** A project that trusts only https://app.example.com (not localhost, where this test server is). */
async function appProject(override: Record<string, unknown> = {}): Promise<TestProject> {
  return emailProject({ "domains.allowLocalhost": false, ...override });
}

const pagePath = (project: TestProject, page: string) => `/projects/${project.projectId}/handler/${page}`;
const hostedUrl = (project: TestProject, page: string) => `${server.env.publicUrl}${pagePath(project, page)}`;

function getPage(path: string): Promise<Response> {
  return fetch(server.url + path, { redirect: "manual" });
}

/** The options the page hands to the elements bundle (its one inline script). */
function pageOptions(html: string): { projectId: string; publishableClientKey: string; baseUrl: string; urls: Record<string, string>; trustedOrigins: string[] } {
  const found = /Latchkey\.initHostedPage\((.*)\);<\/script>/.exec(html);
  expect(found, html).not.toBeNull();
  return JSON.parse(found![1]!);
}

function expectSecurityHeaders(response: Response): void {
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
}

/** Headers of a client call as a hosted page makes it: the public sentinel in place of a key. */
function keylessHeaders(project: TestProject, accessToken?: string): Record<string, string> {
  return {
    "x-stack-project-id": project.projectId,
    "x-stack-access-type": "client",
    "x-stack-publishable-client-key": PUBLIC_CLIENT_SECRET,
    ...(accessToken ? { "x-stack-access-token": accessToken } : {}),
  };
}

describe("hosted handler pages", () => {
  it("serves every handler page of a project as an HTML page that loads this server's bundle, with the security headers", async () => {
    const project = await appProject();
    for (const page of HOSTED_PAGES) {
      const response = await getPage(pagePath(project, page));
      expect(response.status, page).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store, max-age=0");
      expectSecurityHeaders(response);
      const html = await response.text();
      expect(html).toContain(`<script src="/static/${STATIC_VERSION}/latchkey.iife.js"></script>`);
      expect(html).toContain("<auth-handler></auth-handler>");
      expect(html).toContain("<title>Mail Flows</title>");
      // The one inline script runs by the nonce the policy names, and nothing else inline does.
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy")!)?.[1];
      expect(html).toContain(`<script nonce="${nonce}">`);
    }
  });

  it("configures the page as a keyless client of the project, with the project's home as where to go afterwards", async () => {
    const project = await appProject();
    const options = pageOptions(await (await getPage(pagePath(project, "sign-up"))).text());
    expect(options.projectId).toBe(project.projectId);
    expect(options.publishableClientKey).toBe(PUBLIC_CLIENT_SECRET);
    expect(options.baseUrl).toBe(server.env.publicUrl);
    expect(options.urls.handler).toBe(`/projects/${project.projectId}/handler`);
    expect(options.urls.signIn).toBe(hostedUrl(project, "sign-in"));
    expect(options.urls.passwordReset).toBe(hostedUrl(project, "password-reset"));
    expect(options.urls.afterSignIn).toBe(TRUSTED_ORIGIN);
    expect(options.urls.afterSignOut).toBe(TRUSTED_ORIGIN);
  });

  it("keeps a return address the project trusts, and carries it in every page link it hands out", async () => {
    const project = await appProject();
    const returnTo = `${TRUSTED_ORIGIN}/shop?cart=3`;
    const response = await getPage(`${pagePath(project, "sign-up")}?after_auth_return_to=${encodeURIComponent(returnTo)}`);
    expect(response.status).toBe(200);
    const options = pageOptions(await response.text());
    expect(options.urls.afterSignIn).toBe(returnTo);
    expect(options.urls.afterSignUp).toBe(returnTo);
    expect(options.urls.afterSignOut).toBe(returnTo);
    const reset = new URL(options.urls.passwordReset!);
    expect(reset.origin + reset.pathname).toBe(hostedUrl(project, "password-reset"));
    expect(reset.searchParams.get("after_auth_return_to")).toBe(returnTo);
    expect(options.trustedOrigins).toEqual([TRUSTED_ORIGIN]);
  });

  it("reloads the page without a return address the project does not trust: never an open redirect", async () => {
    const project = await appProject();
    const untrusted = ["https://evil.example/", "https://app.example.com.evil.example/", "//evil.example/", "/relative", "javascript:alert(1)", "https://evil.example@app.example.com/x"];
    for (const returnTo of untrusted) {
      const response = await getPage(`${pagePath(project, "sign-in")}?after_auth_return_to=${encodeURIComponent(returnTo)}&login_code=abc`);
      expect(response.status, returnTo).toBe(302);
      expect(response.headers.get("location"), returnTo).toBe(`${pagePath(project, "sign-in")}?login_code=abc`);
    }
    // Two return addresses are one too many to choose from.
    const twice = await getPage(`${pagePath(project, "sign-in")}?after_auth_return_to=${encodeURIComponent(TRUSTED_ORIGIN)}&after_auth_return_to=${encodeURIComponent(TRUSTED_ORIGIN)}`);
    expect(twice.status).toBe(302);
    expect(twice.headers.get("location")).toBe(pagePath(project, "sign-in"));
  });

  it("sends /handler/<page>?project_id=… to the project's pages, keeping the rest of the query", async () => {
    const project = await appProject();
    const response = await getPage(`/handler/password-reset?project_id=${project.projectId}&code=abc`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${pagePath(project, "password-reset")}?code=abc`);
  });

  it("answers a plain 404 page for an unknown project, an unknown page, or no project at all", async () => {
    const project = await appProject();
    const cases = [pagePath(project, "no-such-page"), `/projects/${crypto.randomUUID()}/handler/sign-in`, "/projects/not-a-project/handler/sign-in", "/handler/sign-in"];
    for (const path of cases) {
      const response = await getPage(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expectSecurityHeaders(response);
      const html = await response.text();
      expect(html).toContain("<h1>Not found</h1>");
      expect(html).not.toContain("<script");
    }
  });

  it("hosts no pages for a project that requires a publishable key on every request", async () => {
    const project = await appProject({ "project.requirePublishableClientKey": true });
    const response = await getPage(pagePath(project, "sign-in"));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("requires a publishable client key");
  });
});

describe("the hosted pages' keyless client calls", () => {
  it("are let in with the public sentinel when the project does not require keys, and refused as a missing key when it does", async () => {
    const open = await appProject();
    const read = await api(server.url, "/projects/current", { headers: keylessHeaders(open) });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.id).toBe(open.projectId);

    const strict = await appProject({ "project.requirePublishableClientKey": true });
    expectKnownError(await api(server.url, "/projects/current", { headers: keylessHeaders(strict) }), "CLIENT_AUTHENTICATION_REQUIRED", 401);
  });

  it("still refuse a wrong key as invalid", async () => {
    const project = await appProject();
    const response = await api(server.url, "/projects/current", { headers: { ...keylessHeaders(project), "x-stack-publishable-client-key": "pck_wrong" } });
    expectKnownError(response, "INVALID_PUBLISHABLE_CLIENT_KEY", 401);
  });
});

describe("mail links to the hosted pages", () => {
  it("may lead to this project's hosted pages, not to another project's", async () => {
    const project = await appProject();
    const other = await appProject();
    const address = email();
    await signUpWithPassword(project, address, "a-password-1");

    const sent = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: hostedUrl(project, "password-reset") });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const message = await smtp.nextMessage(address);
    const link = linkIn(message);
    expect(link.origin + link.pathname).toBe(hostedUrl(project, "password-reset"));
    expect(codeIn(message)).toHaveLength(45);

    const foreign = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: hostedUrl(other, "password-reset") });
    expectKnownError(foreign, "REDIRECT_URL_NOT_WHITELISTED", 400);
    const elsewhere = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: `${server.env.publicUrl}/demo/handler/password-reset` });
    expectKnownError(elsewhere, "REDIRECT_URL_NOT_WHITELISTED", 400);
  });
});

describe("the session hand-off from a hosted page to the app", () => {
  const verifier = () => randomBytes(32).toString("base64url");
  const challengeOf = (value: string) => createHash("sha256").update(value).digest("base64url");
  const APP_PAGE = `${TRUSTED_ORIGIN}/shop?cart=3`;

  async function signedInOnHostedPage(project: TestProject) {
    const response = await api(server.url, "/auth/password/sign-up", { method: "POST", headers: keylessHeaders(project), body: { email: email(), password: "a-password-1" } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { access_token: string; user_id: string };
  }

  const handOff = (project: TestProject, accessToken: string | undefined, body: unknown) =>
    api(server.url, "/auth/hosted-pages/handoff", { method: "POST", headers: keylessHeaders(project, accessToken), body });
  const trade = (project: TestProject, body: unknown) => post(project, "/auth/hosted-pages/handoff/sign-in", body);

  it("gives the app a session of its own for the code and the verifier behind its challenge", async () => {
    const project = await appProject();
    const person = await signedInOnHostedPage(project);
    const secret = verifier();
    const made = await handOff(project, person.access_token, { redirect_uri: APP_PAGE, code_challenge: challengeOf(secret) });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    const signedIn = await trade(project, { code: made.body.code, code_verifier: secret, redirect_uri: APP_PAGE });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user_id).toBe(person.user_id);
    const me = await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": signedIn.body.access_token } });
    expect(me.body.id).toBe(person.user_id);

    // Once only.
    expectKnownError(await trade(project, { code: made.body.code, code_verifier: secret, redirect_uri: APP_PAGE }), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("is refused with a wrong verifier or another page, and the code is used up by the attempt", async () => {
    const project = await appProject();
    const person = await signedInOnHostedPage(project);
    const secret = verifier();
    for (const wrong of [{ code_verifier: verifier(), redirect_uri: APP_PAGE }, { code_verifier: secret, redirect_uri: `${TRUSTED_ORIGIN}/other` }]) {
      const made = await handOff(project, person.access_token, { redirect_uri: APP_PAGE, code_challenge: challengeOf(secret) });
      expectKnownError(await trade(project, { code: made.body.code, ...wrong }), "VERIFICATION_CODE_NOT_FOUND", 404);
      expectKnownError(await trade(project, { code: made.body.code, code_verifier: secret, redirect_uri: APP_PAGE }), "VERIFICATION_CODE_ALREADY_USED", 409);
    }
  });

  it("makes codes only for a signed-in person and for pages the project trusts", async () => {
    const project = await appProject();
    const person = await signedInOnHostedPage(project);
    const challenge = challengeOf(verifier());
    // As the protocol answers every route that needs a user: a schema error naming `auth.user`.
    const anonymous = await handOff(project, undefined, { redirect_uri: APP_PAGE, code_challenge: challenge });
    expectKnownError(anonymous, "SCHEMA_ERROR", 400);
    expect(anonymous.body.error).toContain("auth.user must be defined");
    expectKnownError(await handOff(project, person.access_token, { redirect_uri: "https://evil.example/", code_challenge: challenge }), "REDIRECT_URL_NOT_WHITELISTED", 400);
    expectKnownError(await handOff(project, person.access_token, { redirect_uri: APP_PAGE, code_challenge: "plain" }), "SCHEMA_ERROR", 400);
  });

  it("does not trade a code of one project in another", async () => {
    const project = await appProject();
    const other = await appProject();
    const person = await signedInOnHostedPage(project);
    const secret = verifier();
    const made = await handOff(project, person.access_token, { redirect_uri: APP_PAGE, code_challenge: challengeOf(secret) });
    expectKnownError(await trade(other, { code: made.body.code, code_verifier: secret, redirect_uri: APP_PAGE }), "VERIFICATION_CODE_NOT_FOUND", 404);
  });
});
