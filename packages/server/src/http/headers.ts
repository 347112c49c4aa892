import type { MiddlewareHandler } from "hono";
import { DEFAULT_DIALECT, DIALECTS, REQUEST_HEADER_PREFIX, RESPONSE_HEADER_PREFIXES, type Dialect } from "@latchkey/protocol/dialects";
import { DEVICE_TOKEN_HEADER } from "../crypto/device-tokens.js";
import type { AppEnv } from "./context.js";
import { mixedDialectsError, protocolHeader, setProtocolHeader } from "./dialect.js";
import { knownErrorResponse } from "./known-error-response.js";
import { isCompleteAnswer } from "./answer.js";

/** Protocol request headers (without prefix) a browser may send cross-origin. */
const PROTOCOL_REQUEST_HEADERS = [
  "project-id",
  "branch-id",
  "override-error-status",
  "random-nonce",
  "client-version",
  "disable-artificial-development-delay",
  "access-type",
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "admin-access-token",
  "access-token",
  "refresh-token",
  "allow-anonymous-user",
  "development-override-key",
];
/** Request headers only the newer version has: restricted users (issue 14) are let through with it. */
const NEWER_PROTOCOL_REQUEST_HEADERS: Record<Dialect, readonly string[]> = { "2.8.41": [], "2.8.108": ["allow-restricted-user"] };
/** Protocol response headers (without prefix) the client libraries read. */
const PROTOCOL_RESPONSE_HEADERS = ["actual-status", "known-error", "request-id"];

/**
 * Request headers a browser may send cross-origin: each version's protocol headers, under its prefix, and Latchkey's
 * device token (crypto/device-tokens.ts), which its own client library sends with a password sign-in.
 */
export function corsAllowedRequestHeaders(dialect: Dialect): string[] {
  // Both SDKs also send ngrok's header (so that tunnels to a development server pass).
  return ["content-type", "authorization", "ngrok-skip-browser-warning", DEVICE_TOKEN_HEADER, ...[...PROTOCOL_REQUEST_HEADERS, ...NEWER_PROTOCOL_REQUEST_HEADERS[dialect]].map((name) => REQUEST_HEADER_PREFIX[dialect] + name)];
}
/** Response headers the client library of the version reads (and Latchkey's own library, the device token). */
export function corsExposedResponseHeaders(dialect: Dialect): string[] {
  return ["content-type", DEVICE_TOKEN_HEADER, ...RESPONSE_HEADER_PREFIXES[dialect].flatMap((prefix) => PROTOCOL_RESPONSE_HEADERS.map((name) => prefix + name))];
}

/** The CORS headers of every `/api/*` answer in `dialect`. */
export function corsHeaders(dialect: Dialect): Record<string, string> {
  return {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-allow-headers": corsAllowedRequestHeaders(dialect).join(", "),
    "access-control-expose-headers": corsExposedResponseHeaders(dialect).join(", "),
    "access-control-max-age": "86400",
  };
}
const CORS_HEADERS = Object.fromEntries(DIALECTS.map((dialect) => [dialect, corsHeaders(dialect)])) as Record<Dialect, Record<string, string>>;

/** A preflight names the headers the request will carry, and with them its dialect. */
function preflightDialect(requested: string | undefined): Dialect {
  return requested?.toLowerCase().includes(REQUEST_HEADER_PREFIX["2.8.108"]) ? "2.8.108" : DEFAULT_DIALECT;
}

/**
 * Around every `/api/*` route, in one layer (each layer costs every request a closure and a promise): CORS — any
 * origin may call the API (keys, not cookies, authenticate it), preflights are answered here —; a request mixing
 * both versions' headers refused rather than read half one way, half the other; and
 * `x-stack-override-error-status: true`, which turns a 4xx into 200 and reports the real status in
 * `x-stack-actual-status`, for clients (browsers) that cannot read bodies of failed responses (`x-hexclave-…` in the
 * 2.8.108 dialect, which is answered under both names).
 */
export function apiHeaders(): MiddlewareHandler<AppEnv> {
  return async function apiHeaders(c, next) {
    if (c.req.method === "OPTIONS") {
      return new Response(null, { status: 200, headers: CORS_HEADERS[preflightDialect(c.req.header("access-control-request-headers"))] });
    }
    // As the app's error handler answers a known error thrown by a route.
    if (c.get("mixedDialects")) c.res = knownErrorResponse(mixedDialectsError(c), c.get("dialect"));
    else await next();
    const status = c.res.status;
    if (status >= 400 && status < 500 && protocolHeader(c, "override-error-status") === "true") {
      const headers = new Headers(c.res.headers);
      setProtocolHeader(headers, c.get("dialect"), "actual-status", String(status));
      c.res = new Response(c.res.body, { status: 200, headers });
    }
    // A declared route's JSON answer already has them (http/answer.ts).
    if (isCompleteAnswer(c.res)) return;
    for (const [name, value] of Object.entries(CORS_HEADERS[c.get("dialect")])) c.res.headers.set(name, value);
  };
}
