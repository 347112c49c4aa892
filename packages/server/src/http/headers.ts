import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.js";

/** Request headers a browser may send cross-origin (every protocol header). */
export const CORS_ALLOWED_REQUEST_HEADERS = [
  "content-type",
  "authorization",
  "x-stack-project-id",
  "x-stack-branch-id",
  "x-stack-override-error-status",
  "x-stack-random-nonce",
  "x-stack-client-version",
  "x-stack-disable-artificial-development-delay",
  "x-stack-access-type",
  "x-stack-publishable-client-key",
  "x-stack-secret-server-key",
  "x-stack-super-secret-admin-key",
  "x-stack-admin-access-token",
  "x-stack-access-token",
  "x-stack-refresh-token",
  "x-stack-allow-anonymous-user",
  "x-stack-development-override-key",
];
/** Response headers the client library reads. */
export const CORS_EXPOSED_RESPONSE_HEADERS = ["content-type", "x-stack-actual-status", "x-stack-known-error", "x-stack-request-id"];

const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": CORS_ALLOWED_REQUEST_HEADERS.join(", "),
  "access-control-expose-headers": CORS_EXPOSED_RESPONSE_HEADERS.join(", "),
  "access-control-max-age": "86400",
};

/** CORS for `/api/*`: any origin may call the API (keys, not cookies, authenticate it); preflights answered here. */
export function cors(): MiddlewareHandler<AppEnv> {
  return async function cors(c, next) {
    if (c.req.method === "OPTIONS") {
      return new Response(null, { status: 200, headers: CORS_HEADERS });
    }
    await next();
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  };
}

/**
 * `x-stack-override-error-status: true` turns a 4xx into 200 and reports the real status in
 * `x-stack-actual-status`, for clients (browsers) that cannot read bodies of failed responses.
 */
export function overrideErrorStatus(): MiddlewareHandler<AppEnv> {
  return async function overrideErrorStatus(c, next) {
    await next();
    const status = c.res.status;
    if (c.req.header("x-stack-override-error-status") === "true" && status >= 400 && status < 500) {
      const headers = new Headers(c.res.headers);
      headers.set("x-stack-actual-status", String(status));
      c.res = new Response(c.res.body, { status: 200, headers });
    }
  };
}
