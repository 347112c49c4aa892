import { decodeJwt } from "jose";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "../../packages/server/test/support/test-server.js";
import { startNext, startNextFixture, type RunningNext } from "./support/next-app.js";
import { releaseChromium } from "./support/shared-chromium.js";

/**
 * Issue 31, "Reading the user on your own server": @latchkey/next in the demo's Next.js app (demo/next: proxy.ts
 * protects /protected, app/protected reads `auth()` in a Server Component and a Server Action, app/api/me in a
 * Route Handler), built with `next build`, served by `next start`, in Chromium against a real Latchkey server
 * whose access tokens live 10 s (LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS), so a revoked session's last token
 * expires within the test.
 */

const PASSWORD = "server side story";
const TOKEN_LIFETIME_SECONDS = 10;

let latchkey: TestServer;
let project: TestProject;
let browser: Browser;
let next: RunningNext;

beforeAll(async () => {
  const fixture = await startNextFixture("Next.js server auth", {
    // Tokens name the server's public URL as their issuer: the app reaches the server at that address.
    startServer: () => reachablePublicUrl().then((publicUrl) => startTestServer({ ...publicUrl, LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS: String(TOKEN_LIFETIME_SECONDS) })),
    baseUrl: (server) => server.env.publicUrl,
  });
  ({ latchkey, browser, project } = fixture);
  next = await startNext("start", fixture.appEnv);
}, 600_000);

afterAll(async () => {
  await Promise.all([next?.close(), releaseChromium(browser), latchkey?.close()]);
});

describe("@latchkey/next in the demo's Next.js app", () => {
  it("sends a signed-out visitor of the protected page to sign-in and back, then renders the user in the page, a Server Action and a Route Handler", async () => {
    const email = `server-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUser(email);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000); // argon2 takes seconds on a loaded 2-core machine
      // Opening the page (the browser's document request) is redirected by the proxy, query and all.
      const direct = await fetch(`${next.url}/protected?tab=1`, { headers: { accept: "text/html" }, redirect: "manual" });
      expect(direct.status).toBe(307);
      expect(direct.headers.get("location")).toBe("/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D1");
      // So is following a <Link> to it, a client-side navigation of Next's router.
      await page.goto(`${next.url}/members`);
      await page.getByRole("link", { name: "Members' area" }).click();
      await page.waitForURL((url) => url.pathname === "/sign-in" && url.searchParams.get("after_auth_return_to") === "/protected");

      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText(`Signed in on the server as ${email}`, { exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/protected");

      await page.getByRole("button", { name: "Ask a Server Action" }).click();
      await page.getByText(`The Server Action saw ${email}`, { exact: true }).waitFor();

      // The Route Handler, with the browser's cookies, and without any.
      const me = await page.request.get(`${next.url}/api/me`);
      expect(me.status()).toBe(200);
      expect(await me.json()).toMatchObject({ email });
      const anonymous = await fetch(`${next.url}/api/me`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ error: "Sign in first" });
      // A script's request to a protected path is answered 401, not redirected to a page.
      const script = await fetch(`${next.url}/protected`, { headers: { accept: "application/json" }, redirect: "manual" });
      expect(script.status).toBe(401);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("refuses a revoked session once its access token has expired, while a live one is refreshed and stays signed in", async () => {
    const email = `revoked-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const userId = await createUser(email);
    // Two sessions of the user, each in a browser of its own, as the cookie token store keeps them.
    const [revoked, live] = await Promise.all([signedInBrowser(userId), signedInBrowser(userId)]);
    try {
      for (const session of [revoked, live]) {
        const page = await session.context.newPage();
        await page.goto(`${next.url}/protected`);
        await page.getByText(`Signed in on the server as ${email}`, { exact: true }).waitFor();
      }

      const revocation = await fetch(`${latchkey.url}/api/v1/auth/sessions/${revoked.sessionId}?user_id=${userId}`, { method: "DELETE", headers: project.headers("server") });
      expect(revocation.status, await revocation.clone().text()).toBe(200);
      // Access tokens are verified without asking the server, so the revocation shows once they expire.
      await untilPast(Math.max(revoked.expiresAt, live.expiresAt));

      const page = await revoked.context.newPage();
      await page.goto(`${next.url}/protected`);
      expect(new URL(page.url()).pathname).toBe("/sign-in");
      expect((await revoked.context.request.get(`${next.url}/api/me`)).status()).toBe(401);

      const livePage = await live.context.newPage();
      await livePage.goto(`${next.url}/protected`);
      await livePage.getByText(`Signed in on the server as ${email}`, { exact: true }).waitFor();
      // The proxy refreshed the token and gave the browser the new one.
      const access = (await live.context.cookies(next.url)).find((cookie) => cookie.name === "stack-access");
      const [, accessToken] = JSON.parse(decodeURIComponent(access!.value)) as [string, string];
      expect(decodeJwt(accessToken).exp! * 1000).toBeGreaterThan(live.expiresAt);
      expect(await (await live.context.request.get(`${next.url}/api/me`)).json()).toMatchObject({ id: userId, email });
    } finally {
      await Promise.all([revoked.context.close(), live.context.close()]);
    }
  }, 120_000);
});

/** A person with a verified email and a password, made as the customer's backend would (secret server key). */
async function createUser(email: string): Promise<string> {
  const response = await fetch(`${latchkey.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password: PASSWORD }),
  });
  const body = (await response.json()) as { id: string };
  expect(response.ok, JSON.stringify(body)).toBe(true);
  return body.id;
}

/**
 * A browser holding a new session of the user (made by the app's backend, `POST /auth/sessions`) in the cookies
 * @latchkey/react's cookie token store writes: the refresh token, and `[refreshToken, accessToken]`.
 */
async function signedInBrowser(userId: string): Promise<{ context: BrowserContext; sessionId: string; expiresAt: number }> {
  const response = await fetch(`${latchkey.url}/api/v1/auth/sessions`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ user_id: userId }),
  });
  const tokens = (await response.json()) as { refresh_token: string; access_token: string };
  expect(response.ok, JSON.stringify(tokens)).toBe(true);
  const context = await browser.newContext();
  context.setDefaultTimeout(30_000);
  await context.addCookies([
    { name: `stack-refresh-${project.projectId}`, value: tokens.refresh_token, url: next.url },
    { name: "stack-access", value: encodeURIComponent(JSON.stringify([tokens.refresh_token, tokens.access_token])), url: next.url },
  ]);
  const claims = decodeJwt(tokens.access_token);
  return { context, sessionId: claims.refresh_token_id as string, expiresAt: claims.exp! * 1000 };
}

/** Resolves once the clock has passed `time` (a token's expiry): a wait for a known moment, not a guess. */
async function untilPast(time: number): Promise<void> {
  while (Date.now() <= time + 1000) await new Promise((resolve) => setTimeout(resolve, Math.min(500, time + 1001 - Date.now())));
}
