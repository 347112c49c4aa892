import { KnownErrors as ReferenceErrors } from "@stackframe/stack-shared";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { api, expectProtocolInvariants, type ApiResponse } from "./support/api.js";
import { CookieJar, loginAtDevProvider } from "./support/oauth-browser.js";
import { startTestServer } from "./support/test-server.js";
import {
  as,
  clientFlow,
  codeFrom,
  email,
  ERROR_PAGE,
  exchange,
  issuer,
  loginAs,
  oauthProject,
  server,
  signInWithProvider,
  useOAuthServerForFile,
  type ClientFlow,
} from "./oauth/oauth-fixture.js";

// Behaviours of the OAuth flow the first suites left untested (issue 15 audit): expired records, the form_post
// callback, untrusted URLs (checked at the callback), shared keys from the environment, and one sign-in link per
// provider type.
// Every refusal is compared with the error the reference (@stackframe/stack-shared@2.8.41) builds itself.
useOAuthServerForFile();

type Project = Awaited<ReturnType<typeof oauthProject>>;

/** The exact wire answer of a reference known error: status, header, and body `{ code, error[, details] }`. */
function expectReferenceError(response: ApiResponse, error: InstanceType<(typeof ReferenceErrors)[keyof typeof ReferenceErrors]>): void {
  expect(response.status, response.text).toBe(error.statusCode);
  expect(response.headers.get("x-stack-known-error")).toBe(error.errorCode);
  expect(response.body).toEqual(error.toDescriptiveJson());
}

/**
 * A call to a full Latchkey URL (the callback, the authorize URL) as a browser makes it, redirects not followed:
 * with the `cookie` header given (a browser that kept a cookie the server has since cleared), else none.
 */
async function callUrl(url: string, init: { method?: string; body?: URLSearchParams; cookie?: string } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = init.cookie ? { cookie: init.cookie } : {};
  if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
  const response = await fetch(url, { method: init.method ?? "GET", redirect: "manual", headers, body: init.body?.toString() });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  expectProtocolInvariants(response, body);
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * Plays the browser up to the provider's redirect into Latchkey's callback, which is not followed: that URL, and
 * the Cookie header the browser sends there (the authorize answer's inner-state cookie).
 */
async function callbackUrlFor(flow: ClientFlow, who: string): Promise<{ url: string; cookie: string }> {
  const jar = new CookieJar();
  const { location } = await loginAtDevProvider(flow.authorizeUrl, who, { stopAt: `${server.env.publicUrl}/api/v1/auth/oauth/callback/`, jar });
  expect(location).toContain("/api/v1/auth/oauth/callback/github?");
  return { url: location, cookie: jar.header(new URL(location))! };
}

const me = (project: Project, accessToken: string) => as(project, "client", "/users/me", { accessToken });

describe("expired records", () => {
  it("answers a callback whose outer state has expired with OUTER_OAUTH_TIMEOUT, and uses the state up", async () => {
    const project = await oauthProject();
    const { url: callbackUrl, cookie } = await callbackUrlFor(clientFlow(project, "github"), email());
    // The user took longer than the outer state's lifetime at the provider.
    const backdated = await server.db.updateTable("oauth_outer_states").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).executeTakeFirst();
    expect(Number(backdated.numUpdatedRows)).toBe(1);

    // Not redirected to the error page either: the reference answers the timeout itself.
    expectReferenceError(await callUrl(callbackUrl, { cookie }), new ReferenceErrors.OuterOAuthTimeout());
    const replay = await callUrl(callbackUrl, { cookie });
    expect(replay.status).toBe(400);
    expect(replay.text).toBe("Invalid OAuth cookie. Please try signing in again.");
    expect(await server.db.selectFrom("oauth_outer_states").select("project_id").where("project_id", "=", project.projectId).execute()).toEqual([]);
  });

  it("refuses an expired authorization code at /auth/oauth/token with INVALID_AUTHORIZATION_CODE, and uses it up", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const code = codeFrom(flow, await loginAs(flow, email()));
    const backdated = await server.db.updateTable("oauth_authorization_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).executeTakeFirst();
    expect(Number(backdated.numUpdatedRows)).toBe(1);

    expectReferenceError(await exchange(project, code, flow.verifier), new ReferenceErrors.InvalidAuthorizationCode());
    expect(await server.db.selectFrom("oauth_authorization_codes").select("project_id").where("project_id", "=", project.projectId).execute()).toEqual([]);
    expectReferenceError(await exchange(project, code, flow.verifier), new ReferenceErrors.InvalidAuthorizationCode());

    // The same flow with a code still in its lifetime works: only the expiry refused it.
    const fresh = clientFlow(project, "github");
    const ok = await exchange(project, codeFrom(fresh, await loginAs(fresh, email())), fresh.verifier);
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("the callback as a form POST (response_mode=form_post, as Apple sends it)", () => {
  it("completes like the GET: code and state in an urlencoded body, then the code exchange signs the user in", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github", { afterCallback: "http://localhost:3000/after" });
    const who = email();
    const { url, cookie } = await callbackUrlFor(flow, who);
    const callbackUrl = new URL(url);
    const fields = new URLSearchParams(callbackUrl.search);
    expect(fields.get("code")).toBeTruthy();
    expect(fields.get("state")).toBeTruthy();
    const bare = `${callbackUrl.origin}${callbackUrl.pathname}`;

    const posted = await callUrl(bare, { method: "POST", body: fields, cookie });
    expect(posted.status, posted.text).toBe(303);
    const landing = new URL(posted.headers.get("location")!);
    const code = codeFrom(flow, landing);
    const token = await exchange(project, code, flow.verifier);
    expect(token.status, token.text).toBe(200);
    expect(token.body).toMatchObject({ token_type: "Bearer", is_new_user: true, after_callback_redirect_url: "http://localhost:3000/after" });
    expect((await me(project, token.body.access_token)).body).toMatchObject({ primary_email: who, primary_email_verified: true });

    // The posted state is used up as a GET's would be.
    const replay = await callUrl(bare, { method: "POST", body: fields, cookie });
    expect(replay.status).toBe(400);
    expect(replay.text).toBe("Invalid OAuth cookie. Please try signing in again.");
  });

  it("refuses a form POST whose state was never issued, as it refuses the GET", async () => {
    const response = await callUrl(`${server.env.publicUrl}/api/v1/auth/oauth/callback/github`, {
      method: "POST",
      body: new URLSearchParams({ code: "c", state: "never-issued" }),
      cookie: "stack-oauth-inner-never-issued=true",
    });
    expect(response.status).toBe(400);
    expect(response.text).toBe("Invalid OAuth cookie. Please try signing in again.");
  });
});

/** A GET with exactly these headers (fetch would send its own `sec-fetch-mode: cors`, as a script's request does). */
function navigate(url: URL, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    }).on("error", reject);
  });
}

describe("untrusted URLs: sent to the provider, refused at the callback", () => {
  async function authorize(flow: ClientFlow): Promise<ApiResponse> {
    return callUrl(flow.authorizeUrl);
  }

  it("refuses an untrusted redirect_uri at the callback with REDIRECT_URL_NOT_WHITELISTED, before any user is made", async () => {
    const project = await oauthProject();
    for (const redirectUri of ["https://evil.example/handler/oauth-callback", "http://localhost.evil.example:3000/handler/oauth-callback"]) {
      expect((await authorize(clientFlow(project, "github", { redirectUri }))).status).toBe(307);
      // Without an error page, the error is the callback's answer.
      const { response, location } = await loginAtDevProvider(clientFlow(project, "github", { redirectUri, errorRedirect: null }).authorizeUrl, email());
      expect(location).toBe("");
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(new ReferenceErrors.RedirectUrlNotWhitelisted().toDescriptiveJson());
      // With a trusted one, the error goes there.
      expectErrorLandingOf(await loginAs(clientFlow(project, "github", { redirectUri }), email()), new ReferenceErrors.RedirectUrlNotWhitelisted());
    }
    expect((await as(project, "server", "/users")).body.items).toEqual([]);
  });

  it("shows a browser's navigation to that callback a page naming the origin and, in dev mode, the Domains page (issue 31)", async () => {
    const project = await oauthProject();
    const redirectUri = "https://app.example/handler/oauth-callback";
    // As Chromium opens it (navigation headers), and as a browser that sends no Sec-Fetch-* (plain http elsewhere).
    const navigations: Record<string, string>[] = [{ "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", accept: "text/html,*/*;q=0.8" }, { accept: "text/html,application/xhtml+xml" }];
    for (const headers of navigations) {
      const jar = new CookieJar();
      const { location } = await loginAtDevProvider(clientFlow(project, "github", { redirectUri, errorRedirect: null }).authorizeUrl, email(), {
        jar,
        stopAt: `${server.env.publicUrl}/api/v1/auth/oauth/callback/`,
      });
      const page = await navigate(new URL(location), { ...headers, cookie: jar.header(new URL(location)) ?? "" });
      expect(page.status).toBe(400);
      expect(page.headers["x-stack-known-error"]).toBe("REDIRECT_URL_NOT_WHITELISTED");
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      const html = page.text;
      expect(html).toContain("<code>https://app.example</code> is not a trusted domain of the project &#34;OAuth project&#34;");
      expect(html).toContain(`<a href="${server.env.publicUrl}/dashboard/projects/${project.projectId}/domains">Domains page</a>`);
      expect(html).not.toContain("Stack Auth");
    }
    expect((await as(project, "server", "/users")).body.items).toEqual([]);
  });

  it("hands back after_callback_redirect_url as it was given, trusted or not, as the reference does (clients check it)", async () => {
    const project = await oauthProject();
    for (const [afterCallback, expected] of [
      ["https://evil.example/after", "https://evil.example/after"],
      ["http://localhost.evil.example:3000/after", "http://localhost.evil.example:3000/after"],
      ["http://localhost:3000/after", "http://localhost:3000/after"],
    ] as const) {
      const flow = clientFlow(project, "github", { afterCallback });
      const token = await exchange(project, codeFrom(flow, await loginAs(flow, email())), flow.verifier);
      expect(token.body).toMatchObject({ after_callback_redirect_url: expected, afterCallbackRedirectUrl: expected });
    }
  });

  it("accepts an untrusted error_redirect_url but never redirects there: errors are then answered directly", async () => {
    const project = await oauthProject();
    const untrusted = "https://evil.example/handler/error";
    const flow = clientFlow(project, "github", { errorRedirect: untrusted });
    expect((await authorize(flow)).status).toBe(307);
    // The user cancels at the provider: the error is the callback's own answer, not a redirect to evil.example.
    const { response, location } = await loginAtDevProvider(flow.authorizeUrl, email(), { cancel: true });
    expect(location).toBe("");
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
    expect(await response.json()).toEqual(new ReferenceErrors.OAuthProviderAccessDenied().toDescriptiveJson());

    // A trusted error page is where the same error goes.
    const trustedFlow = clientFlow(project, "github");
    expectErrorLandingOf(await loginAs(trustedFlow, email(), { cancel: true }), new ReferenceErrors.OAuthProviderAccessDenied());
  });
});

function expectErrorLandingOf(landing: URL, error: InstanceType<(typeof ReferenceErrors)[keyof typeof ReferenceErrors]>): void {
  expect(`${landing.origin}${landing.pathname}`).toBe(ERROR_PAGE);
  expect(landing.searchParams.get("errorCode")).toBe(error.errorCode);
  expect(landing.searchParams.get("message")).toBe(error.message);
}

describe("shared keys from the environment", () => {
  it("sends a shared provider with LATCHKEY_OAUTH_<TYPE>_CLIENT_ID/_SECRET to the real provider; the others still to the dev issuer", async () => {
    const keyed = await startTestServer(
      { LATCHKEY_OAUTH_DEV_ISSUER: issuer, LATCHKEY_PUBLIC_URL: server.env.publicUrl, LATCHKEY_OAUTH_GITHUB_CLIENT_ID: "Iv1.shared-github-id", LATCHKEY_OAUTH_GITHUB_CLIENT_SECRET: "shared-github-secret" },
      { sameDatabaseAs: server },
    );
    try {
      const project = await oauthProject();
      const authorizeOn = async (provider: string) => {
        const url = new URL(clientFlow(project, provider).authorizeUrl);
        const response = await fetch(`${keyed.url}${url.pathname}${url.search}`, { redirect: "manual" });
        expect(response.status, await response.clone().text()).toBe(307);
        return new URL(response.headers.get("location")!);
      };

      const github = await authorizeOn("github");
      expect(`${github.origin}${github.pathname}`).toBe("https://github.com/login/oauth/authorize");
      expect(github.searchParams.get("client_id")).toBe("Iv1.shared-github-id");
      expect(github.searchParams.get("redirect_uri")).toBe(`${server.env.publicUrl}/api/v1/auth/oauth/callback/github`);
      expect(github.searchParams.get("scope")).toBe("user:email");
      expect(github.searchParams.get("code_challenge_method")).toBe("S256");
      expect(github.toString()).not.toContain(new URL(issuer).host);
      expect(github.toString()).not.toContain("shared-github-secret");

      const gitlab = await authorizeOn("gitlab");
      expect(gitlab.origin).toBe(new URL(issuer).origin);
      expect(gitlab.searchParams.get("client_id")).toBe("gitlab");

      // Still shared keys: no extra scopes, as the reference.
      const scoped = new URL(clientFlow(project, "github").authorizeUrl);
      scoped.searchParams.set("provider_scope", "repo");
      const refused = await api(keyed.url, scoped.pathname.replace("/api/v1", "") + scoped.search);
      expectReferenceError(refused, new ReferenceErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys());
    } finally {
      await keyed.close();
    }
  });
});

describe("one sign-in link per provider type", () => {
  async function signedInUser(project: Project) {
    const who = email();
    const session = await signInWithProvider(project, "github", who);
    return { who, session, userId: (await me(project, session.access_token)).body.id as string };
  }
  const links = (project: Project, userId: string) => as(project, "server", `/oauth-providers?user_id=${userId}`).then((r) => r.body.items as any[]);

  it("links a second GitHub account to a user who signs in with GitHub as a connected account only", async () => {
    const project = await oauthProject();
    const { who, session, userId } = await signedInUser(project);
    const second = email();
    const linked = await signInWithProvider(project, "github", second, { type: "link", token: session.access_token });
    expect(linked.is_new_user).toBe(false);
    expect((await me(project, linked.access_token)).body.id).toBe(userId);

    const byAccount = Object.fromEntries((await links(project, userId)).map((link) => [link.account_id, link]));
    expect(byAccount[who]).toMatchObject({ type: "github", provider_config_id: "github", allow_sign_in: true, allow_connected_accounts: true });
    expect(byAccount[second]).toMatchObject({ type: "github", provider_config_id: "github", allow_sign_in: false, allow_connected_accounts: true });

    // The second account does not sign in to the user: signing in with it is someone new.
    const other = await signInWithProvider(project, "github", second);
    expect(other.is_new_user).toBe(true);
    expect((await me(project, other.access_token)).body.id).not.toBe(userId);
    // The first still does.
    expect((await me(project, (await signInWithProvider(project, "github", who)).access_token)).body.id).toBe(userId);
  });

  it("counts entries of the same type under another config id as the same provider type", async () => {
    const project = await oauthProject({ "auth.oauth.providers.github-work": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } });
    const { userId, session } = await signedInUser(project);
    const work = email();
    await signInWithProvider(project, "github-work", work, { type: "link", token: session.access_token });
    const [githubLink, workLink] = (await links(project, userId)).sort((a, b) => a.provider_config_id.localeCompare(b.provider_config_id));
    expect(githubLink).toMatchObject({ type: "github", provider_config_id: "github", allow_sign_in: true });
    expect(workLink).toMatchObject({ type: "github", provider_config_id: "github-work", account_id: work, allow_sign_in: false, allow_connected_accounts: true });
  });

  it("lets a link sign in when the user signs in with no account of that type", async () => {
    const project = await oauthProject();
    const password = await as(project, "server", "/users", { body: { primary_email: email(), primary_email_auth_enabled: true, password: "correct horse battery" } });
    expect(password.status).toBe(201);
    const signIn = await api(server.url, "/auth/password/sign-in", { method: "POST", headers: project.headers("client"), body: { email: password.body.primary_email, password: "correct horse battery" } });
    expect(signIn.status, signIn.text).toBe(200);
    const who = email();
    await signInWithProvider(project, "github", who, { type: "link", token: signIn.body.access_token });
    expect(await links(project, password.body.id)).toEqual([expect.objectContaining({ account_id: who, allow_sign_in: true, allow_connected_accounts: true })]);
    const again = await signInWithProvider(project, "github", who);
    expect(again.is_new_user).toBe(false);
    expect((await me(project, again.access_token)).body.id).toBe(password.body.id);
  });
});
