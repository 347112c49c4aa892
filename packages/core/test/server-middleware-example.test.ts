import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthenticatedUser } from "../src/server/index.js";
import { reachablePublicUrl, type TestProject } from "../../server/test/support/test-server.js";
import { createTestProject, email, PASSWORD, useLiveServer } from "./support/live-server.js";

/**
 * packages/core/README.md's "Reading the user on your own server" examples, run as written: the blocks between
 * the `README:` markers below are the README's code blocks verbatim (the first test checks that), served by a
 * node:http server (Express's `req`/`res` are node:http's, with more methods) and called as fetch handlers
 * (Hono's `c.req.raw`, Bun, Deno, Next.js Route Handlers) against a real Latchkey server.
 */

const live = useLiveServer(await reachablePublicUrl());
let project: TestProject;
let examples: typeof import("./support/readme-examples.js");
let app: { url: string; close(): Promise<void> };

beforeAll(async () => {
  project = await createTestProject(live.server(), "Middleware example");
  // The README reads these from the environment, when the module loads: the test's own server and project.
  process.env.LATCHKEY_PROJECT_ID = project.projectId;
  process.env.LATCHKEY_BASE_URL = live.server().env.publicUrl;
  examples = await import("./support/readme-examples.js");
  // The README's Express app, wired by hand: withUser on every route, requireUser before `me` on /api/me.
  const server = createServer((req, res) => {
    examples.withUser(req, res, (error) => {
      if (error) return void res.writeHead(500).end(String(error));
      if (req.url === "/api/me") return examples.requireUser(req, res, () => examples.me(req, res));
      res.end(`Hello ${(req as IncomingMessage & { user?: AuthenticatedUser | null }).user?.primaryEmail ?? "stranger"}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  app = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
});

afterAll(async () => {
  await app?.close();
});

async function signUp() {
  const address = email();
  const response = await fetch(`${live.server().url}/api/v1/auth/password/sign-up`, {
    method: "POST",
    headers: { ...project.headers("client"), "content-type": "application/json" },
    body: JSON.stringify({ email: address, password: PASSWORD }),
  });
  const body = (await response.json()) as { access_token: string; refresh_token: string; user_id: string };
  return { email: address, accessToken: body.access_token, refreshToken: body.refresh_token, userId: body.user_id };
}

describe("packages/core/README.md's server examples", () => {
  it("are the code this test runs, word for word", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const source = readFileSync(new URL("./support/readme-examples.ts", import.meta.url), "utf8");
    const blocks = [...source.matchAll(/\/\/ README: \w+\n([\s\S]*?)\/\/ end README\n/g)].map((match) => match[1]!);
    expect(blocks).toHaveLength(2);
    for (const block of blocks) expect(readme).toContain("```ts\n" + block + "```\n");
  });

  it("Express-style middleware: 401 signed out, the user with a bearer token or the browser's session cookies", async () => {
    const user = await signUp();
    const signedOut = await fetch(`${app.url}/api/me`);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: "Sign in first" });

    const bearer = await fetch(`${app.url}/api/me`, { headers: { authorization: `Bearer ${user.accessToken}` } });
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toEqual({ id: user.userId, email: user.email });

    // As a browser signed in with @latchkey/elements or @latchkey/react sends them (the cookie token store).
    const cookie = `stack-refresh-${project.projectId}=${user.refreshToken}; stack-access=${encodeURIComponent(JSON.stringify([user.refreshToken, user.accessToken]))}`;
    expect(await (await fetch(`${app.url}/api/me`, { headers: { cookie } })).json()).toEqual({ id: user.userId, email: user.email });
    expect(await (await fetch(`${app.url}/`, { headers: { cookie } })).text()).toBe(`Hello ${user.email}`);
    expect(await (await fetch(`${app.url}/`)).text()).toBe("Hello stranger");
  });

  it("fetch handler (Hono, Bun, Deno, Route Handlers): 401 signed out, the user signed in", async () => {
    const user = await signUp();
    const signedOut = await examples.handleMe(new Request("http://app.test/api/me"));
    expect(signedOut.status).toBe(401);
    const signedIn = await examples.handleMe(new Request("http://app.test/api/me", { headers: { authorization: `Bearer ${user.accessToken}` } }));
    expect(await signedIn.json()).toEqual({ id: user.userId, email: user.email });
  });
});
