import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./context.js";
import { MAX_CONFIG_OVERRIDE_BYTES } from "../config/config-override-check.js";

/**
 * Routes that take more than LATCHKEY_MAX_BODY_BYTES: a project's config override may hold 5 MB of JSON
 * (issue 33), sent as a string inside the JSON body (so with escapes); its route refuses more than 5 MB itself.
 */
const LARGER_BODY_ROUTES: readonly { suffix: string; maxBytes: number }[] = [
  { suffix: "/internal/config/override", maxBytes: MAX_CONFIG_OVERRIDE_BYTES + 1024 * 1024 },
];

/**
 * Refuses a request body larger than `maxBytes` before reading it (issue 17: a 200 MB body was read whole
 * before any check). A declared Content-Length over the limit is refused at once; a chunked body is
 * counted as it streams and refused when it passes the limit. The protocol has no known error for this.
 */
export function limitBodySize(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    // Asking a request without a body for its body still makes @hono/node-server build a whole fetch Request
    // (a tenth of the CPU of `GET /users/me`), so requests that carry none are let through untouched.
    if (!carriesBody(c.req.raw)) return next();
    const larger = LARGER_BODY_ROUTES.find((route) => c.req.path.endsWith(route.suffix));
    const maxBytes = Math.max(c.get("deps").env.maxBodyBytes, larger?.maxBytes ?? 0);
    const tooLarge = (c: Context<AppEnv>) => c.text(`Request body too large: at most ${maxBytes} bytes are accepted.`, 413, { connection: "close" });
    // A declared length is the body's length (Node's parser reads no more), so it is checked here, from the
    // header alone: Hono's middleware first asks for the body stream, which makes @hono/node-server build a
    // fetch Request and a web stream (a tenth of a sign-in's main-thread CPU), where the route reads the body
    // straight from Node's request instead.
    const declared = c.req.raw.headers.get("content-length");
    if (declared !== null && !c.req.raw.headers.has("transfer-encoding")) return parseInt(declared, 10) > maxBytes ? Promise.resolve(tooLarge(c)) : next();
    return bodyLimit({ maxSize: maxBytes, onError: tooLarge })(c, next);
  };
}

/**
 * Whether a request has a body at all (RFC 9112 §6.3: only Content-Length or Transfer-Encoding announce one);
 * a body sent with a GET or HEAD is never read, so it is not counted either.
 */
export function carriesBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  return request.headers.has("content-length") || request.headers.has("transfer-encoding");
}
