// packages/core/README.md's server examples, verbatim between the markers (server-middleware-example.test.ts
// checks that and runs them).
// README: express
import { createTokenVerifier, type AuthenticatedUser } from "@latchkey/core/server";
import type { IncomingMessage, ServerResponse } from "node:http";

// One verifier for the process: it fetches the project's public keys once, then verifies each request locally.
export const latchkey = createTokenVerifier({ projectId: process.env.LATCHKEY_PROJECT_ID!, baseUrl: process.env.LATCHKEY_BASE_URL! });

type UserRequest = IncomingMessage & { user?: AuthenticatedUser | null };

// Express middleware (Express's req and res are node:http's): req.user is the signed-in user, or null.
export async function withUser(req: UserRequest, res: ServerResponse, next: (error?: unknown) => void) {
  try {
    req.user = await latchkey.getUser(req);
    next();
  } catch (error) {
    next(error); // the keys could not be fetched: a setup problem, not a signed-out visitor
  }
}

export function requireUser(req: UserRequest, res: ServerResponse, next: () => void) {
  if (req.user) return next();
  res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "Sign in first" }));
}

// app.use(withUser); app.get("/api/me", requireUser, me);
export function me(req: UserRequest, res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: req.user!.id, email: req.user!.primaryEmail }));
}
// end README
// README: fetch
// A fetch handler: Bun, Deno, Cloudflare Workers, Next.js Route Handlers; in Hono, pass `c.req.raw`.
export async function handleMe(request: Request): Promise<Response> {
  const user = await latchkey.getUser(request);
  if (!user) return Response.json({ error: "Sign in first" }, { status: 401 });
  return Response.json({ id: user.id, email: user.primaryEmail });
}
// end README
