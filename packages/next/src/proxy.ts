import { NextResponse, type NextRequest } from "next/server.js";
import { configFromEnv, type LatchkeyConfig } from "./config.js";
import { compilePathPattern, type PathPattern } from "./path-patterns.js";
import { ACCESS_TOKEN_COOKIE, ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS, readSession } from "./session.js";

export interface LatchkeyProxyOptions {
  /** The paths only signed-in users may open, e.g. `["/dashboard/:path*", "/settings"]`. */
  protect: PathPattern[];
  /**
   * Where signed-out visitors of a protected page go; the page they asked for is added as
   * `after_auth_return_to`, where `<AuthSignIn>` returns them after signing in. Default `/handler/sign-in`.
   */
  signInUrl?: string;
  /** Default: from the environment, as for `auth()`. */
  config?: LatchkeyConfig;
}

/**
 * Next.js's proxy (`proxy.ts`; `middleware.ts` before Next 16): protects `protect`'s paths. A signed-out visit
 * to one is redirected to sign-in with the return URL; a script's request that asks for JSON answers 401
 * instead. On every path it runs for, an expired access token is refreshed once and the new one is both
 * handed to the page (its `auth()` sees it) and set as a cookie for the next request.
 *
 * @example
 * ```ts
 * // proxy.ts
 * import { latchkeyProxy } from "@latchkey/next";
 * export const proxy = latchkeyProxy({ protect: ["/dashboard/:path*"], signInUrl: "/handler/sign-in" });
 * // Next reads `matcher` from this file as written: keep it to the paths that need the session.
 * export const config = { matcher: ["/dashboard/:path*"] };
 * ```
 */
export function latchkeyProxy(options: LatchkeyProxyOptions): (request: NextRequest) => Promise<NextResponse> {
  const patterns = options.protect.map(compilePathPattern);
  const signInUrl = options.signInUrl ?? "/handler/sign-in";
  return async function proxy(request) {
    const session = await readSession(options.config ?? configFromEnv(), request.headers);
    const { pathname, search } = request.nextUrl;
    if (!session.user && patterns.some((pattern) => pattern.test(pathname))) {
      if (wantsJson(request)) return NextResponse.json({ error: "Sign in to use this." }, { status: 401 });
      const target = new URL(signInUrl, request.url);
      target.searchParams.set("after_auth_return_to", pathname + search);
      return NextResponse.redirect(target);
    }
    if (!session.refreshed) return NextResponse.next();
    // The page renders with the fresh token (its auth() reads the request's cookies), and the browser keeps it.
    request.cookies.set(ACCESS_TOKEN_COOKIE, session.refreshed.accessCookie);
    const response = NextResponse.next({ request: { headers: request.headers } });
    const secure = request.cookies.get("stack-is-https")?.value === "true";
    response.cookies.set(ACCESS_TOKEN_COOKIE, session.refreshed.accessCookie, { path: "/", maxAge: ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS, sameSite: "lax", secure });
    return response;
  };
}

/**
 * A script's request that wants JSON (`accept: application/json`, not HTML): answered 401, which a redirect to an
 * HTML page would only confuse. Everything else is redirected: browser navigations, and Next's client-side
 * navigations, whose `rsc` header Next strips before the proxy sees it (they accept any type, and Next's router
 * follows the redirect).
 */
function wantsJson(request: NextRequest): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}
