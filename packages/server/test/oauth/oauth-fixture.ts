import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { api, type ApiResponse } from "../support/api.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../../src/services/projects.js";
import { loginAtDevProvider } from "../support/oauth-browser.js";
import { startOidcProviderProcess } from "../support/oidc-provider-process.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "../support/test-server.js";

/**
 * One Latchkey server whose shared OAuth providers use a real OpenID provider process (oidc-provider, the same
 * development provider Latchkey serves under /dev/oauth, started as its own process), as LATCHKEY_OAUTH_DEV_ISSUER
 * points test suites at; and the client's side of the flow, done as the protocol's client library does it.
 */

export let server: TestServer;
export let issuer: string;
let provider: { issuer: string; close(): Promise<void> } | undefined;

/** `env`: more of the server's variables (the webhook suite lets it deliver to 127.0.0.1). */
export function useOAuthServerForFile(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    provider = await startOidcProviderProcess();
    issuer = provider.issuer;
    server = await startTestServer({ ...(await reachablePublicUrl()), LATCHKEY_OAUTH_DEV_ISSUER: issuer, LATCHKEY_ALLOW_SHARED_OAUTH_ACCESS_TOKENS: "true", LATCHKEY_LOG_LEVEL: process.env.DEBUG_LOG ?? "silent", ...env });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });
}

export const APP_URL = "http://localhost:3000";
export const CALLBACK = `${APP_URL}/handler/oauth-callback`;
export const ERROR_PAGE = `${APP_URL}/handler/error`;
export const email = () => `oauth-${crypto.randomUUID()}@example.com`;

export const PROVIDERS = {
  "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
  "auth.oauth.providers.gitlab": { type: "gitlab", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
};

export async function oauthProject(override: Record<string, unknown> = {}): Promise<TestProject> {
  return createTestProject(server, "OAuth project", { configOverride: { ...NEW_PROJECT_CONFIG_OVERRIDE, ...PROVIDERS, ...override } });
}

export interface ClientFlow {
  state: string;
  verifier: string;
  authorizeUrl: string;
}

/** The authorize URL as @stackframe/js builds it (PKCE S256, a random state, `scope=legacy`). */
export function clientFlow(project: TestProject, provider: string, options: { type?: "authenticate" | "link"; token?: string; afterCallback?: string; errorRedirect?: string | null; redirectUri?: string } = {}): ClientFlow {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(24).toString("base64url");
  // On the server's public URL, as the client library's base URL names it: the authorize answer's cookie is then
  // on the host the provider sends the browser back to.
  const url = new URL(`${server.env.publicUrl}/api/v1/auth/oauth/authorize/${provider}`);
  const params: Record<string, string | undefined> = {
    client_id: project.projectId,
    client_secret: project.publishableClientKey,
    redirect_uri: options.redirectUri ?? CALLBACK,
    scope: "legacy",
    state,
    grant_type: "authorization_code",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    response_type: "code",
    type: options.type ?? "authenticate",
    error_redirect_url: options.errorRedirect === null ? undefined : (options.errorRedirect ?? ERROR_PAGE),
    token: options.token,
    after_callback_redirect_url: options.afterCallback,
  };
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return { state, verifier, authorizeUrl: url.toString() };
}

/** Plays the browser: authorize → provider login as `who` → callback; returns where Latchkey sends the user. */
export async function loginAs(flow: ClientFlow, who: string, options: { cancel?: boolean } = {}): Promise<URL> {
  const { location, response } = await loginAtDevProvider(flow.authorizeUrl, who, options);
  expect(location, `${response.status} ${await response.clone().text()}`).not.toBe("");
  return new URL(location);
}

/** The code Latchkey handed the client, after checking the state came back unchanged. */
export function codeFrom(flow: ClientFlow, landing: URL): string {
  expect(`${landing.origin}${landing.pathname}`, landing.toString()).toBe(CALLBACK);
  expect(landing.searchParams.get("state")).toBe(flow.state);
  return landing.searchParams.get("code")!;
}

export function exchange(project: TestProject, code: string, verifier: string, redirectUri: string | null = CALLBACK): Promise<ApiResponse> {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: project.projectId, client_secret: project.publishableClientKey });
  if (redirectUri !== null) body.set("redirect_uri", redirectUri);
  return api(server.url, "/auth/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() });
}

/** The whole sign-in: the token response's body. */
export async function signInWithProvider(project: TestProject, provider: string, who: string, options: Parameters<typeof clientFlow>[2] = {}): Promise<any> {
  const flow = clientFlow(project, provider, options);
  const landing = await loginAs(flow, who);
  const response = await exchange(project, codeFrom(flow, landing), flow.verifier);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export function as(project: TestProject, access: "client" | "server" | "admin", path: string, call: { method?: string; body?: unknown; accessToken?: string } = {}): Promise<ApiResponse> {
  const headers = { ...project.headers(access), ...(call.accessToken ? { "x-stack-access-token": call.accessToken } : {}) };
  return api(server.url, path, { method: call.method, body: call.body, headers });
}

export function expectKnownError(response: ApiResponse, code: string, status: number): void {
  expect(response.body?.code, JSON.stringify(response.body)).toBe(code);
  expect(response.status).toBe(status);
}

/** The error page Latchkey sent the user to: the known error's code and message in the query, as the protocol does. */
export function expectErrorLanding(landing: URL, code: string): void {
  expect(`${landing.origin}${landing.pathname}`, landing.toString()).toBe(ERROR_PAGE);
  expect(landing.searchParams.get("errorCode")).toBe(code);
  expect(landing.searchParams.get("message")).toBeTruthy();
  expect(() => JSON.parse(landing.searchParams.get("details")!)).not.toThrow();
}
