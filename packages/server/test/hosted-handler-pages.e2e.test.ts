import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browser, createUserWithPassword, demoProject, linkTo, mailTo, newEmail, server, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";
import type { TestProject } from "./support/test-server.js";

/**
 * Issue 16 §5 in Chromium: a plain page on another origin (its own little web server, no routes but one page)
 * with the script tag and `hostedPages: true`. Its "Sign up" and "Forgot password?" links lead to the handler
 * pages the Latchkey server hosts, the mails link there too, and people come back to the app's page signed in
 * (the session handed over with PKCE), though the two origins share no cookies.
 */
useDemoForFile();

let appServer: Server;
/** The app's origin: `localhost`, while the Latchkey server is `127.0.0.1` — other hosts, so no shared cookies. */
let appOrigin: string;
/** The Latchkey server as its public URL names it (the address its pages and mails use). */
const latchkey = () => server.env.publicUrl;
let currentProject: TestProject;

beforeAll(async () => {
  // Every path is the same page: the shop's aisles, and its home page `/` (where people go when done).
  appServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<script src="${latchkey()}/static/v1/latchkey.iife.js"></script>
<script>
Latchkey.init({ projectId: ${JSON.stringify(currentProject.projectId)}, publishableClientKey: ${JSON.stringify(currentProject.publishableClientKey)}, baseUrl: ${JSON.stringify(latchkey())}, hostedPages: true });
</script>
</head>
<body><h1>The shop</h1><auth-user-button></auth-user-button><auth-sign-in></auth-sign-in></body>
</html>`);
  });
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve));
  appOrigin = `http://localhost:${(appServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => appServer?.close(() => resolve())));

/**
 * A project that trusts the app's origin only (not localhost in general, so not the Latchkey server either),
 * with GitHub sign-in through the server's development OpenID provider.
 */
async function shopProject(): Promise<TestProject> {
  currentProject = await demoProject({
    "domains.allowLocalhost": false,
    "domains.trustedDomains.shop": { baseUrl: appOrigin, handlerPath: "/handler" },
    "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
  });
  return currentProject;
}

/** A user with a password and two-factor authentication on; their authenticator app. */
async function userWithTwoFactor(project: TestProject, email: string): Promise<TOTP> {
  const userId = await createUserWithPassword(project, email, "the password");
  const secret = new Uint8Array(randomBytes(20));
  const enabled = await fetch(`${latchkey()}/api/v1/users/${userId}`, {
    method: "PATCH",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ totp_secret_base64: Buffer.from(secret).toString("base64") }),
  });
  expect(enabled.status).toBe(200);
  return new TOTP({ secret: new Secret({ buffer: secret.buffer }), algorithm: "SHA1", digits: 6, period: 30 });
}

/** `expectedErrorAnswers`: API paths whose error answer is part of the story (Chromium logs each as an error). */
async function withBrowser(run: (page: Page, context: BrowserContext) => Promise<void>, expectedErrorAnswers: string[] = []): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30_000); // a step waits on mail and argon2, seconds apiece on a loaded 2-core machine
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // Anything the hosted pages' Content-Security-Policy blocked would show here (and break the page).
  page.on("console", (message) => {
    const expected = message.text().startsWith("Failed to load resource") && expectedErrorAnswers.some((path) => message.location().url === `${latchkey()}${path}`);
    if (message.type() === "error" && !expected) errors.push(message.text());
  });
  try {
    await run(page, context);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

const onHostedPage = (project: TestProject, page: string) => (url: URL) => url.origin === latchkey() && url.pathname === `/projects/${project.projectId}/handler/${page}`;
/** Back on the shop's page, once the hand-off's code and state are gone from the address. */
const backAtTheShop = (url: URL) => url.origin === appOrigin && url.pathname === "/shop" && url.search === "?aisle=7";

describe("hosted handler pages for a script-tag app on another origin", () => {
  it("follows Sign up to the hosted page, signs up there and comes back to the app's page signed in", async () => {
    const project = await shopProject();
    const email = newEmail("ada");
    await withBrowser(async (page, context) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      await page.getByRole("link", { name: "Sign up" }).click();

      await page.waitForURL(onHostedPage(project, "sign-up"));
      const returnTo = new URL(new URL(page.url()).searchParams.get("after_auth_return_to")!);
      expect(returnTo.origin + returnTo.pathname + "?aisle=7").toBe(`${appOrigin}/shop?aisle=7`);
      await page.getByRole("heading", { name: "Create an account" }).waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
      await page.getByLabel("Repeat password").fill("correct horse battery");
      await page.getByRole("button", { name: "Create account" }).click();

      await page.waitForURL(backAtTheShop);
      await page.getByRole("button", { name: email }).waitFor();
      // The app holds a session of its own, in its own origin's cookies.
      const appCookies = await context.cookies(appOrigin);
      expect(appCookies.map((cookie) => cookie.name)).toContain(`stack-refresh-${project.projectId}`);
      expect(appCookies.some((cookie) => cookie.name.startsWith("latchkey-handoff-"))).toBe(false);
    });
  });

  it("resets a forgotten password through the mailed link to the hosted page, then signs in and comes back", async () => {
    const project = await shopProject();
    const email = newEmail("grace");
    await createUserWithPassword(project, email, "an old password");
    await withBrowser(async (page) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.waitForURL(onHostedPage(project, "forgot-password"));
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.getByRole("heading", { name: "Check your email" }).waitFor();

      // The mail links to the project's hosted password-reset page (the app has no such route).
      const link = new URL(linkTo(await mailTo(email), `/projects/${project.projectId}/handler/password-reset`));
      expect(link.origin).toBe(latchkey());
      expect(link.searchParams.get("code")).toHaveLength(45);
      await page.goto(link.toString());
      await page.getByLabel("New password", { exact: true }).fill("a brand new password");
      await page.getByLabel("Repeat new password").fill("a brand new password");
      await page.getByRole("button", { name: "Reset password" }).click();
      await page.getByText("Your password has been reset. You can now sign in with it.").waitFor();

      await page.getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL(onHostedPage(project, "sign-in"));
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("a brand new password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(backAtTheShop);
      await page.getByRole("button", { name: email }).waitFor();
    });
  });

  it("signing out in the app signs out of the hosted pages too, and comes back", async () => {
    const project = await shopProject();
    const email = newEmail("linus");
    await createUserWithPassword(project, email, "the password");
    await withBrowser(async (page) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      await page.locator("auth-user-button").getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL(onHostedPage(project, "sign-in"));
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("the password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(backAtTheShop);

      await page.getByRole("button", { name: email }).click();
      await page.getByRole("menuitem", { name: "Sign out" }).click();
      await page.waitForURL((url) => url.origin === appOrigin && url.pathname === "/");
      // The hosted sign-in page asks again: nobody is left signed in there for the next person.
      await page.goto(`${latchkey()}/projects/${project.projectId}/handler/sign-in`);
      await page.getByLabel("Email").waitFor();
      expect(await page.getByRole("link", { name: "Continue" }).count()).toBe(0);
    });
  });

  it("signs up with GitHub on the hosted sign-in page and comes back to the app's page signed in", async () => {
    const project = await shopProject();
    const email = newEmail("octo");
    await withBrowser(async (page) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      await page.locator("auth-user-button").getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL(onHostedPage(project, "sign-in"));
      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      // The server's development provider asks which email to continue as.
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(backAtTheShop);
      // Signed in: the user button is a menu button now (a provider account shows its name, not the email).
      await page.locator("auth-user-button").getByRole("button", { name: /Account menu for/ }).waitFor();
    });
  });

  it("signs in with GitHub from the app's own sign-in form, coming back to the app's page", async () => {
    await shopProject();
    const email = newEmail("cat");
    await withBrowser(async (page) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      await page.locator("auth-sign-in").getByRole("button", { name: "Continue with GitHub" }).click();
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Continue" }).click();
      // The callback is the page the sign-in started on; then after-sign-in, the app's home.
      await page.waitForURL((url) => url.origin === appOrigin && url.pathname === "/");
      // Signed in: the user button is a menu button now (a provider account shows its name, not the email).
      await page.locator("auth-user-button").getByRole("button", { name: /Account menu for/ }).waitFor();
    });
  });

  it("asks for the two-factor code in the app's own sign-in form, on the app's page, and signs in there", async () => {
    const project = await shopProject();
    const email = newEmail("ada-2fa");
    const authenticatorApp = await userWithTwoFactor(project, email);

    await withBrowser(async (page) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      const form = page.locator("auth-sign-in");
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill("the password");
      await form.getByRole("button", { name: "Sign in", exact: true }).click();

      // The second step is asked for in the widget, on the app's page: the attempt code never leaves this
      // origin (a hosted two-factor page, on the server's, could not read it).
      await form.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
      expect(backAtTheShop(new URL(page.url()))).toBe(true);
      // A mistyped code is said so, in place, and the sign-in can still be finished.
      const current = [-30_000, 0, 30_000].map((shift) => authenticatorApp.generate({ timestamp: Date.now() + shift }));
      await form.getByLabel("Code").fill(["000000", "111111", "222222", "333333"].find((code) => !current.includes(code))!);
      await form.getByRole("button", { name: "Verify" }).click();
      await form.getByText("The code is invalid. Please try again.").waitFor();
      await form.getByLabel("Code").fill(authenticatorApp.generate());
      await form.getByRole("button", { name: "Verify" }).click();

      // Signed in on the app's origin, then after-sign-in (the app's home).
      await page.waitForURL((url) => url.origin === appOrigin && url.pathname === "/");
      await page.getByRole("button", { name: email }).waitFor();
    }, ["/api/v1/auth/password/sign-in", "/api/v1/auth/mfa/sign-in"]);
  });

  it("asks for the two-factor code on the app's page when a magic link started there comes back to it", async () => {
    const project = await shopProject();
    const email = newEmail("grace-2fa");
    const authenticatorApp = await userWithTwoFactor(project, email);
    await withBrowser(async (page) => {
      await page.goto(`${appOrigin}/shop?aisle=7`);
      const form = page.locator("auth-sign-in");
      await form.getByRole("button", { name: "Email me a sign-in code instead" }).click();
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Send sign-in code" }).click();
      await form.getByRole("heading", { name: "Check your email" }).waitFor();

      // The link leads back to the page the sign-in started on, which signs in on arrival.
      await page.goto(linkTo(await mailTo(email), "/shop"));
      await form.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
      expect(new URL(page.url()).origin).toBe(appOrigin);
      await form.getByLabel("Code").fill(authenticatorApp.generate());
      await form.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL((url) => url.origin === appOrigin && url.pathname === "/");
      await page.getByRole("button", { name: email }).waitFor();
    }, ["/api/v1/auth/otp/sign-in"]);
  });

  it("refuses to send anyone to an untrusted return address after signing in", async () => {
    const project = await shopProject();
    const email = newEmail("mallory-victim");
    await createUserWithPassword(project, email, "the password");
    await withBrowser(async (page) => {
      await page.goto(`${latchkey()}/handler/sign-in?project_id=${project.projectId}&after_auth_return_to=${encodeURIComponent("https://evil.example/steal")}`);
      await page.waitForURL((url) => onHostedPage(project, "sign-in")(url) && url.search === "");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("the password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      // The project's home (its trusted domain) instead.
      await page.waitForURL((url) => url.origin === appOrigin);
    });
  });
});
