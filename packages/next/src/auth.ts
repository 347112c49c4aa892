import type { AuthenticatedUser } from "@latchkey/core/server";
import { cookies, headers } from "next/headers.js";
import { configFromEnv, type LatchkeyConfig } from "./config.js";
import { ACCESS_TOKEN_COOKIE, ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS, readSession, type HeadersLike } from "./session.js";

/**
 * The signed-in user of the request being answered, or null: in a Server Component, a Route Handler or a Server
 * Action. The access token (session cookies, or an `Authorization: Bearer` header) is verified against the
 * project's keys, fetched once per process; an expired one is refreshed (see `readSession`). The configuration
 * comes from the environment (LATCHKEY_PROJECT_ID, LATCHKEY_BASE_URL, LATCHKEY_PUBLISHABLE_CLIENT_KEY) unless given.
 *
 * @example
 * ```tsx
 * import { auth } from "@latchkey/next";
 * export default async function Page() {
 *   const user = await auth();
 *   return <p>{user ? `Hello ${user.primaryEmail}` : "Signed out"}</p>;
 * }
 * ```
 */
export async function auth(config: LatchkeyConfig = configFromEnv()): Promise<AuthenticatedUser | null> {
  const session = await readSession(config, await headers());
  if (session.refreshed) await keepCookie(session.refreshed.accessCookie);
  return session.user;
}

/**
 * The signed-in user of a `Request` (a Route Handler's argument, or any fetch request), or null. Unlike `auth()`
 * it writes no cookie back when it refreshed an expired token.
 */
export async function getUser(request: { headers: HeadersLike }, config: LatchkeyConfig = configFromEnv()): Promise<AuthenticatedUser | null> {
  return (await readSession(config, request.headers)).user;
}

/**
 * Keeps a refreshed access token for the next request. Route Handlers and Server Actions may set cookies; a
 * Server Component may not (Next throws), and then the token is simply refreshed again next time, or by the
 * proxy, or by the browser.
 */
async function keepCookie(value: string): Promise<void> {
  try {
    const jar = await cookies();
    // As the browser's cookie store writes it: Secure when it found the page to be on HTTPS.
    const secure = jar.get("stack-is-https")?.value === "true";
    jar.set(ACCESS_TOKEN_COOKIE, value, { path: "/", maxAge: ACCESS_TOKEN_COOKIE_MAX_AGE_SECONDS, sameSite: "lax", secure });
  } catch {
    // A Server Component: nothing to do.
  }
}
