import { describe, expect, it } from "vitest";
import { at, browser, demoProject, newEmail, openDemo, server, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";

/**
 * Issue 29 §2 in Chromium: an OAuth callback URL works only in the browser that started the flow (login-CSRF
 * defence). One browser signs in with GitHub from the demo's sign-in page (the widgets, the built-in development
 * provider); its provider login's redirect into Latchkey's callback is held back and opened in a second browser
 * context first, as an attacker would send it to a victim. That one is refused; the first browser then finishes.
 */
useDemoForFile();

const COOKIE_NOT_FOUND = "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again";

describe("the OAuth callback in another browser", () => {
  it("is refused in a second browser context, and still finishes in the browser that started the flow", async () => {
    const project = await demoProject({ "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } });
    const latchkey = server.env.publicUrl;
    // The demo at the server's public URL, the host the authorize answer's cookie is set on.
    const first = await openDemo(project, `${latchkey}/demo/handler/sign-in`);

    // Hold the provider's redirect into the callback: its URL is what an attacker would pass on. Redirects are not
    // routed themselves, so the provider's answers are fetched here (in this context, with its cookies), its own
    // redirects followed, and the one into the callback kept.
    const providerPattern = `${latchkey}/dev/oauth/**`;
    let callbackUrl: string | undefined;
    await first.route(providerPattern, async (route) => {
      let url = route.request().url();
      let response = await route.fetch({ maxRedirects: 0 });
      for (let hop = 0; hop < 5; hop++) {
        const location = response.headers()["location"];
        const target = location ? new URL(location, url) : undefined;
        if (target?.pathname.startsWith("/api/v1/auth/oauth/callback/")) {
          callbackUrl = target.href;
          return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>held</title>" });
        }
        if (!target?.pathname.startsWith("/dev/oauth/")) break;
        url = target.href;
        response = await first.context().request.get(url, { maxRedirects: 0 });
      }
      return route.fulfill({ response });
    });
    const cookieNames = async () => (await first.context().cookies(latchkey)).map((cookie) => cookie.name);
    await first.getByRole("button", { name: "Continue with GitHub" }).click();
    await first.getByLabel("Email address").fill(newEmail("octo"));
    // The authorize answer set the flow's cookie in this browser, on the server's origin.
    expect((await cookieNames()).filter((name) => name.startsWith("stack-oauth-inner-"))).toHaveLength(1);
    await first.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => callbackUrl).toBeDefined();
    const state = new URL(callbackUrl!).searchParams.get("state");

    const second = await browser.newContext();
    try {
      const victim = await second.newPage();
      const refused = await victim.goto(callbackUrl!);
      expect(refused!.status()).toBe(400);
      expect(await refused!.text()).toBe(COOKIE_NOT_FOUND);
      expect(await second.cookies(latchkey)).toEqual([]);
    } finally {
      await second.close();
    }
    expect(await (await fetch(`${latchkey}/api/v1/users`, { headers: project.headers("server") })).json()).toMatchObject({ items: [] });

    // The browser that started the flow finishes it: signed in on the demo, its cookie cleared.
    await first.unroute(providerPattern);
    await first.goto(callbackUrl!);
    await first.waitForURL(at("/demo/"));
    await first.locator("#signed-in").waitFor();
    expect(await cookieNames()).not.toContain(`stack-oauth-inner-${state}`);
    expect((await (await fetch(`${latchkey}/api/v1/users`, { headers: project.headers("server") })).json()).items).toHaveLength(1);
  });
});

describe("an after_callback_redirect_url on another origin", () => {
  it("is handed back by the token endpoint as given, and the widgets stay on their own origin", async () => {
    const project = await demoProject({ "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } });
    const latchkey = server.env.publicUrl;
    const page = await openDemo(project, `${latchkey}/demo/handler/sign-in`);
    // The server hands the URL back as given (the reference does too): the client must refuse to go there.
    let handedBack: unknown;
    await page.route(`${latchkey}/api/v1/auth/oauth/token`, async (route) => {
      const response = await route.fetch();
      const body = { ...(await response.json()), after_callback_redirect_url: "https://evil.example/after" };
      handedBack = body.after_callback_redirect_url;
      await route.fulfill({ response, json: body });
    });
    const leftTheOrigin: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).hostname === "evil.example") leftTheOrigin.push(request.url());
    });
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.getByLabel("Email address").fill(newEmail("octo"));
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(at("/demo/"));
    await page.locator("#signed-in").waitFor();
    expect(handedBack).toBe("https://evil.example/after");
    expect(leftTheOrigin).toEqual([]);
  });
});
