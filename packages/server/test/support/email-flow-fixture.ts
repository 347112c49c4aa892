import { afterAll, beforeAll, expect } from "vitest";
import { api, type ApiResponse } from "./api.js";
import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from "./smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./test-server.js";

/**
 * Shared setup of the email-flow suites (password reset, OTP sign-in, sign-in invitation, redirect
 * allow-list): one server and one real SMTP capture per test file, projects whose mail goes to it.
 */

// Live bindings: test files read what their own beforeAll started.
export let server: TestServer;
export let smtp: SmtpCapture;

export function useServerAndSmtpForFile(vars: Record<string, string> = {}, smtpOptions: Parameters<typeof startSmtpCapture>[0] = {}): void {
  beforeAll(async () => {
    [server, smtp] = await Promise.all([startTestServer(vars), startSmtpCapture(smtpOptions)]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), smtp?.close()]);
  });
}

export const TRUSTED_ORIGIN = "https://app.example.com";
export const RESET_CALLBACK = `${TRUSTED_ORIGIN}/handler/password-reset`;
export const MAGIC_LINK_CALLBACK = `${TRUSTED_ORIGIN}/handler/magic-link-callback`;

export const email = () => `person-${crypto.randomUUID()}@example.com`;

export interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** A fresh project sending mail to the capture, with password and OTP sign-in on and one trusted domain. */
export async function emailProject(override: Record<string, unknown> = {}): Promise<TestProject> {
  const project = await createTestProject(server, "Mail Flows");
  await configure(project, {
    "emails.server": { isShared: false, host: smtp.host, port: smtp.port, username: "mailer", password: "secret", senderName: "Mail Flows", senderEmail: "noreply@flows.example" },
    "auth.password.allowSignIn": true,
    "auth.otp.allowSignIn": true,
    "domains.trustedDomains.app": { baseUrl: TRUSTED_ORIGIN, handlerPath: "/handler" },
    ...override,
  });
  return project;
}

export async function configure(project: TestProject, override: Record<string, unknown>): Promise<void> {
  const response = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** A POST as the client library makes it: publishable key, optionally a signed-in user. */
export function post(project: TestProject, path: string, body: unknown, options: { access?: "client" | "server" | "admin"; tokens?: Tokens } = {}): Promise<ApiResponse> {
  const headers = { ...project.headers(options.access ?? "client"), ...(options.tokens ? { "x-stack-access-token": options.tokens.access_token } : {}) };
  return api(server.url, path, { method: "POST", headers, body });
}

/** A new access token from a refresh token, as the client library refreshes (the refresh token's liveness). */
export function refresh(project: TestProject, refreshToken: string): Promise<ApiResponse> {
  return api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": refreshToken } });
}

export function getMe(project: TestProject, tokens: Tokens): Promise<ApiResponse> {
  return api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token } });
}

export async function signUpWithPassword(project: TestProject, address: string, password: string): Promise<Tokens & { user_id: string }> {
  const response = await post(project, "/auth/password/sign-up", { email: address, password });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** The first https link in a received mail's text part, as a person would click it. */
export function linkIn(message: CapturedEmail): URL {
  const found = message.text.match(/https?:\/\/\S+/);
  expect(found, `a link in: ${message.text}`).not.toBeNull();
  return new URL(found![0]);
}

/** The `code` query parameter of the link in a received mail. */
export function codeIn(message: CapturedEmail): string {
  const code = linkIn(message).searchParams.get("code");
  expect(code).toBeTruthy();
  return code!;
}

export function expectKnownError(response: ApiResponse, code: string, status: number): void {
  expect(response.body?.code, JSON.stringify(response.body)).toBe(code);
  expect(response.status).toBe(status);
}

export function tally(responses: ApiResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of responses) {
    const key = r.status === 200 ? "ok" : (r.body?.code ?? String(r.status));
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** No message to `address` arrives within `ms` (for flows that must not send). */
export async function expectNoMailTo(address: string, ms = 1500): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  expect(smtp.messages.filter((m) => m.to.includes(address.toLowerCase()))).toEqual([]);
}
