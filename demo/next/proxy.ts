import { latchkeyProxy } from "@latchkey/next";

// Next.js's proxy (its middleware): signed-out visits to /protected go to /sign-in, and come back after.
export const proxy = latchkeyProxy({ protect: ["/protected/:path*"], signInUrl: "/sign-in" });

// Next reads this as written (no variables): the proxy runs only where the session matters.
export const config = { matcher: ["/protected/:path*"] };
