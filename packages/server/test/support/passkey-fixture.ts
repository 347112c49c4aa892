import { expect } from "vitest";
import { api, type ApiResponse } from "./api.js";
import { SoftwareAuthenticator, type PageContext } from "./software-authenticator.js";
import { createTestProject, type TestProject } from "./test-server.js";
import { configure, createUser, server, signIn, type Tokens } from "./users-fixture.js";

/** Shared steps of the passkey suites: a project with passkeys on, a signed-in user, the four routes. */

export const APP_ORIGIN = "https://app.example.com";
export const APP_PAGE: PageContext = { origin: APP_ORIGIN };

/** A project with passkey sign-in on, trusting `https://app.example.com` and not localhost. */
export async function passkeyProject(override: Record<string, unknown> = {}): Promise<TestProject> {
  const project = await createTestProject(server, "Passkey App");
  await configure(project, {
    "auth.passkey.allowSignIn": true,
    "domains.allowLocalhost": false,
    "domains.trustedDomains.app": { baseUrl: APP_ORIGIN, handlerPath: "/handler" },
    ...override,
  });
  return project;
}

export interface PasskeyUser {
  id: string;
  email: string;
  tokens: Tokens;
}

export async function signedInUser(project: TestProject): Promise<PasskeyUser> {
  const email = `passkey-${crypto.randomUUID()}@example.com`;
  const user = await createUser(project, { primary_email: email, primary_email_verified: true });
  const { access_token, refresh_token } = await signIn(project, user.id);
  return { id: user.id, email, tokens: { access_token, refresh_token } };
}

/**
 * A POST as a browser page makes it through the client library: publishable key, the user's token when
 * signed in, and the page's Origin header (omitted with `origin: null`, as a server-side caller would).
 */
export function passkeyPost(project: TestProject, path: string, body: unknown, options: { origin?: string | null; tokens?: Tokens } = {}): Promise<ApiResponse> {
  const origin = options.origin === undefined ? APP_ORIGIN : options.origin;
  const headers: Record<string, string> = { ...project.headers("client") };
  if (origin !== null) headers.origin = origin;
  if (options.tokens) headers["x-stack-access-token"] = options.tokens.access_token;
  return api(server.url, `/auth/passkey${path}`, { method: "POST", headers, body });
}

export function expectOk(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

export function expectKnownError(response: ApiResponse, code: string, status: number): void {
  expect(response.body.code, JSON.stringify(response.body)).toBe(code);
  expect(response.status).toBe(status);
}

/** Initiates registration as the user and answers with the authenticator on `page`; the register response. */
export async function registerPasskey(project: TestProject, user: PasskeyUser, authenticator: SoftwareAuthenticator, page: PageContext = APP_PAGE): Promise<ApiResponse> {
  const initiated = await passkeyPost(project, "/initiate-passkey-registration", {}, { tokens: user.tokens, origin: page.origin });
  expectOk(initiated);
  const credential = authenticator.register(initiated.body.options_json, page);
  return passkeyPost(project, "/register", { credential, code: initiated.body.code }, { tokens: user.tokens, origin: page.origin });
}

/** The options and code of a fresh authentication challenge. */
export async function initiateSignIn(project: TestProject, origin: string | null = APP_ORIGIN): Promise<{ options: any; code: string }> {
  const initiated = await passkeyPost(project, "/initiate-passkey-authentication", {}, { origin });
  expectOk(initiated);
  return { options: initiated.body.options_json, code: initiated.body.code };
}

/** A whole passkey sign-in on `page`: initiate, let the authenticator sign, send it. */
export async function signInWithPasskey(project: TestProject, authenticator: SoftwareAuthenticator, page: PageContext = APP_PAGE): Promise<ApiResponse> {
  const { options, code } = await initiateSignIn(project, page.origin);
  const authentication_response = authenticator.authenticate(options, page);
  return passkeyPost(project, "/sign-in", { authentication_response, code }, { origin: page.origin });
}

export function getMe(project: TestProject, tokens: Tokens): Promise<ApiResponse> {
  return api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token } });
}
