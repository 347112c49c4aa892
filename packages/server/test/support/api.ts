import { expect } from "vitest";
import { knownErrorClassByCode } from "@latchkey/protocol/errors";
import { WELL_KNOWN_DEV_KEYS } from "../../src/env.js";

export type Access = "client" | "server" | "admin" | "none";

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface ApiRequest {
  method?: string;
  /** Which well-known key set to send (internal project in dev mode); "none" sends no x-stack headers. */
  access?: Access;
  projectId?: string;
  headers?: Record<string, string>;
  /** JSON body; a string is sent as-is with content-type application/json. */
  body?: unknown;
}

/** Sends a request to a running server and checks the invariants every response must keep. */
export async function api(baseUrl: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  const access = request.access ?? "none";
  if (access !== "none") {
    headers["x-stack-project-id"] = request.projectId ?? "internal";
    headers["x-stack-access-type"] = access;
    if (access === "client") headers["x-stack-publishable-client-key"] = WELL_KNOWN_DEV_KEYS.publishableClientKey;
    if (access === "server") headers["x-stack-secret-server-key"] = WELL_KNOWN_DEV_KEYS.secretServerKey;
    if (access === "admin") headers["x-stack-super-secret-admin-key"] = WELL_KNOWN_DEV_KEYS.superSecretAdminKey;
  }
  let body: string | undefined;
  if (request.body !== undefined) {
    headers["content-type"] = "application/json";
    body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  }
  const response = await fetch(baseUrl + "/api/v1" + path, { method: request.method ?? (body ? "POST" : "GET"), headers: { ...headers, ...request.headers }, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  expectProtocolInvariants(response, parsed);
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** No 5xx; a known error carries its catalogue status and a header equal to the body code. */
export function expectProtocolInvariants(response: Response, body: unknown) {
  expect(response.status, `unexpected server error: ${JSON.stringify(body)}`).toBeLessThan(500);
  expect(response.headers.get("x-stack-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get("cache-control")).toBe("no-store, max-age=0");
  expect(response.headers.get("x-powered-by")).toBeNull();
  const code = response.headers.get("x-stack-known-error");
  if (code) {
    expect((body as { code?: string }).code).toBe(code);
    const known = knownErrorClassByCode(code);
    expect(known, `code ${code} is in the catalogue`).toBeDefined();
    const actual = Number(response.headers.get("x-stack-actual-status") ?? response.status);
    expect(actual).toBe(known!.status);
  }
}
