/**
 * @latchkey/next: the signed-in user on the server side of a Next.js App Router app. `auth()` in Server
 * Components, Route Handlers and Server Actions; `latchkeyProxy()` in proxy.ts to protect paths. The browser
 * side is @latchkey/react (its default cookie token store is what these read).
 */
export { auth, getUser } from "./auth.js";
export { configFromEnv, type LatchkeyConfig } from "./config.js";
export { latchkeyProxy, type LatchkeyProxyOptions } from "./proxy.js";
export type { PathPattern } from "./path-patterns.js";
export type { AuthenticatedUser } from "@latchkey/core/server";
