import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { emailConfig, mailForBrowser, type CapturedMailForBrowser } from "../../../packages/elements/test/support/browser-test-services.js";
import { startSmtpCapture, type SmtpCapture } from "../../../packages/server/test/support/smtp-capture.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "../../../packages/server/test/support/test-server.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../../../packages/server/src/services/projects.js";
import { ensureDemoBuilt } from "./demo-build.js";
import { CHROMIUM_ARGS } from "./chromium-args.mjs";
import { releaseChromium, sharedChromium } from "./shared-chromium.js";

/**
 * Shared setup of the demo's end-to-end suites: per test file one real server (in-memory PGlite, dev mode,
 * so it serves /demo/) and one real SMTP capture, with the thread's Debian Chromium (shared-chromium.ts) driven by
 * playwright-core; per test a fresh browser context (no cookies, no session storage) and a project whose mail goes
 * to the capture.
 */

// Live bindings: test files read what their own beforeAll started.
export let server: TestServer;
export let smtp: SmtpCapture;
export let browser: Browser;
const contexts: BrowserContext[] = [];

// The switches every browser test launches Chromium with (chromium-args.mjs), here for the files that import them from here.
export { CHROMIUM_ARGS };

export function useDemoForFile(): void {
  beforeAll(async () => {
    await ensureDemoBuilt();
    [server, smtp, browser] = await Promise.all([
      // A public URL the server can reach itself at: its development OpenID provider (/dev/oauth) is the
      // issuer its shared OAuth providers discover.
      reachablePublicUrl().then((vars) => startTestServer({ ...vars, LATCHKEY_DEV_MODE: "true" })),
      startSmtpCapture(),
      sharedChromium(),
    ]);
  });
  afterEach(async () => {
    // A step that timed out often has its cause here (a script that failed to load or threw).
    const errors = contexts.flatMap((context) => context.pages()).flatMap((page) => errorsOf(page));
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    if (errors.length) throw new Error(`uncaught errors in the demo page:\n${errors.join("\n")}`);
  });
  afterAll(async () => {
    await Promise.all([releaseChromium(browser), server?.close(), smtp?.close()]);
  });
}

/** A fresh project with password and one-time-code sign-in, mail to the capture, localhost trusted (and `extra` config). */
export function demoProject(extra: Record<string, unknown> = {}): Promise<TestProject> {
  return createTestProject(server, "Demo e2e", { configOverride: { ...NEW_PROJECT_CONFIG_OVERRIDE, ...emailConfig(smtp), ...extra } });
}

/**
 * A new tab (in a fresh context) on a demo page, pointed at `project` through the demo's query parameters,
 * which the page remembers for the tab (so mail links opened in the same tab use the same project).
 */
export async function openDemo(project: TestProject, path = "/demo/"): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  // A step that cannot happen fails within the test timeout, with the step named.
  page.setDefaultTimeout(30_000); // a step waits on mail and argon2, seconds apiece on a loaded 2-core machine
  // Uncaught page errors fail the test with their message instead of a mysterious timeout later.
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  const url = new URL(path, server.url);
  url.searchParams.set("project_id", project.projectId);
  url.searchParams.set("publishable_client_key", project.publishableClientKey);
  await page.goto(url.toString());
  pageErrors.set(page, errors);
  return page;
}

const pageErrors = new WeakMap<Page, Error[]>();

/** The page's uncaught errors so far (a test asserts there are none at its end). */
export function errorsOf(page: Page): string[] {
  return (pageErrors.get(page) ?? []).map((error) => error.message);
}

/**
 * The next mail to `address`, as a person reads it: subject, text, links, one-time code. A project's first mail
 * starts its render sandbox cold, which took more than 15 s on a 2-core machine at load 40; waiting longer costs
 * nothing when the mail is quick.
 */
export async function mailTo(address: string): Promise<CapturedMailForBrowser> {
  return mailForBrowser(await smtp.nextMessage(address, 45_000));
}

/** The mail's link to a demo page (`/demo/handler/…`), as the person would click it. */
export function linkTo(mail: CapturedMailForBrowser, pathPrefix: string): string {
  const link = mail.links.find((candidate) => new URL(candidate).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`no link to ${pathPrefix} in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

export const newEmail = (prefix = "person") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A path of the server (for `page.waitForURL`): matches whatever query the page carries. */
export function at(path: string): (url: URL) => boolean {
  return (url) => url.pathname === path;
}

/** A user made by the customer's backend (secret server key), with a verified email and a password. */
export async function createUserWithPassword(project: TestProject, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password }),
  });
  const body = (await response.json()) as { id?: string };
  if (!response.ok || !body.id) throw new Error(`POST /users answered ${response.status}: ${JSON.stringify(body)}`);
  return body.id;
}
