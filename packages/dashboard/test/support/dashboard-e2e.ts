import { createRequire } from "node:module";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";
import { constants, createAdminApp, createClientApp } from "../../../core/src/index.js";
import { releaseChromium, sharedChromium } from "../../../../demo/test/support/shared-chromium.js";
import { createKeySet } from "../../../server/src/services/api-keys.js";
import { reachablePublicUrl, startTestServer, type TestServer } from "../../../server/test/support/test-server.js";
import { ensureDashboardBuilt } from "./dashboard-build.js";

/**
 * What every dashboard end-to-end test file shares: the real server (dev mode, so mail lands in the dev outbox)
 * serving the built dashboard, the thread's Chromium (shared-chromium.ts), a fresh browser context per page
 * (closed after each test, which fails on any uncaught error in the page), and the steps tests start with: an owner
 * who signs up, and a project of theirs (through the widgets and the Projects page, or through the API where that is
 * not the test's subject).
 */
export interface DashboardHarness {
  readonly server: TestServer;
  /**
   * A new page on /dashboard/ (phone: 360 × 740; dark: prefers-color-scheme dark); `refreshToken`: signed in with
   * that session, its refresh token in the cookie the dashboard's sign-in would have set.
   */
  open(options?: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark"; path?: string; refreshToken?: string }): Promise<Page>;
}

export function useDashboardHarness(env: Record<string, string> = {}): DashboardHarness {
  // A dashboard test walks through several pages like a person; on a loaded 2-core CI machine, beside the other
  // suites, that takes several times what it takes alone. Every step waits for a condition, so the room costs
  // nothing when things are fast.
  vi.setConfig({ testTimeout: 240_000 }); // expect.poll's 30 s is every project's (vite.config.ts)
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const pageErrors = new WeakMap<Page, string[]>();
  const serverFailures = new WeakMap<Page, string[]>();

  // A stale dashboard is rebuilt first (Vite): on a loaded machine that alone can pass the default two minutes.
  beforeAll(async () => {
    await ensureDashboardBuilt();
    [server, browser] = await Promise.all([
      reachablePublicUrl().then((vars) => startTestServer({ ...vars, LATCHKEY_DEV_MODE: "true", ...env })),
      sharedChromium(),
    ]);
  }, 600_000);
  afterEach(async (context) => {
    const pages = contexts.flatMap((browserContext) => browserContext.pages());
    if (context.task.result?.state === "fail") await Promise.all(pages.map((page) => reportPage(page, pageErrors.get(page) ?? [], serverFailures.get(page) ?? [])));
    const errors = pages.flatMap((page) => pageErrors.get(page) ?? []);
    await Promise.all(contexts.splice(0).map((browserContext) => browserContext.close()));
    if (errors.length) throw new Error(`uncaught errors in the dashboard:\n${errors.join("\n")}`);
  });
  afterAll(async () => {
    await Promise.all([releaseChromium(browser), server?.close()]);
  });

  return {
    get server() {
      if (!server) throw new Error("the dashboard harness has not started yet (use it inside tests)");
      return server;
    },
    async open({ viewport = { width: 1280, height: 800 }, colorScheme = "light", path = "/dashboard/", refreshToken } = {}) {
      const context = await browser!.newContext({ viewport, colorScheme });
      contexts.push(context);
      if (refreshToken) await context.addCookies([{ name: constants.refreshTokenCookieName("internal"), value: refreshToken, url: server!.url, sameSite: "Lax" }]);
      const page = await context.newPage();
      page.setDefaultTimeout(45_000);
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      pageErrors.set(page, errors);
      const failures: string[] = [];
      page.on("response", (response) => {
        // Refusals too: a 401 or 404 the dashboard did not expect shows up as a missing element, not an error.
        if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      });
      serverFailures.set(page, failures);
      await page.goto(`${server!.url}${path}`);
      return page;
    },
  };
}

/**
 * What a failed test's page showed, for a failure that happened only on a loaded CI machine: its address,
 * the server's 4xx and 5xx answers, uncaught errors, and the accessibility tree (what a locator searches).
 */
async function reportPage(page: Page, errors: string[], failures: string[]): Promise<void> {
  const tree = await page
    .locator("body")
    .ariaSnapshot({ timeout: 5_000 })
    .catch((error: Error) => `(no snapshot: ${error.message})`);
  console.error(
    [`page at ${page.url()}`, `server 4xx/5xx: ${failures.join("; ") || "none"}`, `uncaught errors: ${errors.join("; ") || "none"}`, "accessibility tree:", tree].join("\n"),
  );
}

export const newOwnerEmail = () => `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
export const OWNER_PASSWORD = "correct horse battery";

/** Signs a new owner up through the sign-in widget's "Sign up" link; ends on the Projects page. */
export async function signUpOwner(page: Page): Promise<string> {
  const email = newOwnerEmail();
  await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
  await page.getByRole("link", { name: "Sign up" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER_PASSWORD);
  await page.getByLabel("Repeat password").fill(OWNER_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
  return email;
}

/**
 * Creates a project on the Projects page; resolves to its id once its Get started page (where creation lands)
 * shows its keys. The owner must be signed in and on the Projects page.
 */
export async function createProject(page: Page, name = `Project ${crypto.randomUUID().slice(0, 6)}`): Promise<string> {
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL((url) => /^\/dashboard\/projects\/[^/]+\/get-started$/.test(url.pathname));
  await page.getByRole("heading", { name, level: 1 }).waitFor();
  await page.getByRole("heading", { name: "Your app's settings" }).waitFor();
  return /\/dashboard\/projects\/([^/]+)/.exec(new URL(page.url()).pathname)![1]!;
}

/**
 * Creates a project and opens its Overview; resolves to its id once the Overview shows. The owner must be
 * signed in and on the Projects page.
 */
export async function createAndOpenProject(page: Page, name?: string): Promise<string> {
  const projectId = await createProject(page, name);
  await openSection(page, "Overview");
  await page.waitForURL((url) => url.pathname === `/dashboard/projects/${projectId}`);
  await page.getByRole("heading", { name: "Users", level: 2, exact: true }).waitFor();
  return projectId;
}

/** A client app of the dashboard's own project (`internal`), in memory, as the dashboard's pages make one. */
function internalClientApp(server: TestServer) {
  return createClientApp({
    projectId: "internal",
    publishableClientKey: server.env.seedKeys.publishableClientKey!,
    baseUrl: server.url,
    tokenStore: "memory",
    currentUrl: () => `${server.url}/dashboard/`,
    navigate: () => {},
    // The dashboard's own handler: a verification mail links to it, as it does after a sign-up in the dashboard.
    urls: { handler: "/dashboard/handler" },
  });
}

/**
 * A new owner, signed up through the API (as the sign-in widget does it; signing up through the widgets is
 * dashboard.e2e's and get-started.e2e's subject), and that owner's session: its refresh token, for `open`, and the
 * client app it is signed in to.
 */
export async function signUpOwnerByApi(server: TestServer): Promise<{ email: string; refreshToken: string; app: ReturnType<typeof internalClientApp> }> {
  const email = newOwnerEmail();
  const app = internalClientApp(server);
  await app.signUpWithCredential({ email, password: OWNER_PASSWORD, noRedirect: true });
  const { refreshToken } = app.session.peek();
  if (!refreshToken) throw new Error("the sign-up through the API left no session");
  return { email, refreshToken, app };
}

/**
 * A new owner (of their own) on a new project's Overview, in one step: the owner signs up and creates the project
 * with its app keys through the API, as the Projects page does it (create-project-form.tsx; making a project on
 * that page is dashboard.e2e's, get-started.e2e's and owner-journey.e2e's subject), and the page opens on its
 * Overview.
 */
export async function ownerWithProject(harness: DashboardHarness, options?: Omit<NonNullable<Parameters<DashboardHarness["open"]>[0]>, "refreshToken" | "path">) {
  const { email, refreshToken, app } = await signUpOwnerByApi(harness.server);
  const owner = await app.getUser();
  if (!owner?.selectedTeamId) throw new Error("the new owner has no team to own a project");
  const project = await app.createProject({ displayName: `Project ${crypto.randomUUID().slice(0, 6)}`, ownerTeamId: owner.selectedTeamId });
  const admin = createAdminApp({ projectId: project.id, projectOwnerSession: app.session, baseUrl: harness.server.url, tokenStore: "memory" });
  // The key set the page makes with a project (app-keys.ts `createAppKeys`: publishable and secret server key, "never"
  // expiring, which is NEVER_DAYS, 100 years; not imported: its modules are the page's TSX, React and router).
  await admin.createInternalApiKey({ description: "App keys (Get started)", expiresAt: new Date(Date.now() + 100 * 365 * 86_400_000), hasPublishableClientKey: true, hasSecretServerKey: true, hasSuperSecretAdminKey: false });
  const page = await harness.open({ ...options, refreshToken, path: `/dashboard/projects/${project.id}` });
  await page.getByRole("heading", { name: "Users", level: 2, exact: true }).waitFor();
  return { page, email, projectId: project.id };
}

/** The owner signed in through the API on the dashboard's own project (`internal`), as a second device would be. */
export async function ownerClientApp(server: TestServer, email: string) {
  const app = internalClientApp(server);
  await app.signInWithCredential({ email, password: OWNER_PASSWORD, noRedirect: true });
  return app;
}

/** The project's admin app as its owner (signed in like the dashboard), to set up data or check what reached the server. */
export async function ownerAdmin(server: TestServer, email: string, projectId: string) {
  const owner = await ownerClientApp(server, email);
  return createAdminApp({ projectId, projectOwnerSession: owner.session, baseUrl: server.url, tokenStore: "memory" });
}

/** Keys of the project made on the server's side for the test's own checks (not through the page under test). */
export function testKeys(server: TestServer, projectId: string, description: string, kinds: Parameters<typeof createKeySet>[2]["kinds"] = ["superSecretAdminKey"]) {
  return createKeySet(server.db, projectId, { description, expiresAt: null, kinds });
}

/** An admin app of the project with a super secret admin key made for the test; `adminKey` is that key. */
export async function keyAdmin(server: TestServer, projectId: string, description: string) {
  const adminKey = (await testKeys(server, projectId, description)).super_secret_admin_key!;
  return Object.assign(createAdminApp({ projectId, baseUrl: server.url, tokenStore: "memory", superSecretAdminKey: adminKey }), { adminKey });
}

/** Opens one of the project's sections by its link in the project navigation. */
export async function openSection(page: Page, section: string): Promise<void> {
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: section, exact: true }).click();
}

/** How far the page's content reaches past the viewport's width, in CSS pixels (0: nothing overflows). */
/**
 * Clicks `target` until `outcome` shows (a dialog it opens, say), waiting for it a few seconds after each click. A
 * click lands where the button was when Playwright found it steady; a part of the page that arrives just then (the
 * code editor, a preview) can move the button away first, and that click is lost — seen only on a loaded CI
 * machine. A button that never brings `outcome` still fails, at the end of `timeout`.
 */
export async function clickUntilShown(target: Locator, outcome: Locator, timeout = 45_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    await target.click();
    try {
      await outcome.waitFor({ timeout: Math.max(1, Math.min(5_000, deadline - Date.now())) });
      return;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
  }
}

export const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Switches the page's emulated colour scheme; resolves once its JSON editors (if any) have followed it: the page's
 * CSS switches at once, a CodeMirror editor on the media query's change event (`data-scheme`, json-editor.tsx), and
 * axe run in between finds its light text on the dark page.
 */
export async function emulateScheme(page: Page, colorScheme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction((scheme) => [...document.querySelectorAll<HTMLElement>(".config-editor")].every((editor) => editor.dataset.scheme === scheme), colorScheme);
}

/**
 * axe in light and dark mode on the page as it is now, and no horizontal overflow at 360 px. `setScheme`
 * switches the colour scheme (by default `emulateScheme`) and resolves once the page has followed it.
 */
export async function expectAccessibleAndNarrow(
  page: Page,
  setScheme: (scheme: "light" | "dark") => Promise<void> = (colorScheme) => emulateScheme(page, colorScheme),
): Promise<void> {
  await expectNoAxeViolations(page);
  await setScheme("dark");
  await expectNoAxeViolations(page);
  await setScheme("light");
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => horizontalOverflow(page)).toBe(0);
  await page.setViewportSize(viewport);
}

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * Runs axe (WCAG 2 A and AA rules) on the page as it is now and fails with each violation's rule and the
 * first offending elements. Call it once the page has loaded its data (it checks what is rendered).
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return result.violations.map((v) => `${v.id} (${v.help}): ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(", ")}`);
  });
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
}
