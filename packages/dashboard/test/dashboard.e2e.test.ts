import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS } from "../../../demo/test/support/demo-e2e.js";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { reachablePublicUrl, startTestServer, type TestServer } from "../../server/test/support/test-server.js";
import { ensureDashboardBuilt } from "./support/dashboard-build.js";

/**
 * The admin dashboard as an owner meets it (issue 20, first step): the real server serves the built app at
 * /dashboard/, the owner signs up through our own widgets on the `internal` project, creates a project and
 * sees it listed; and the page fits a 360 px phone.
 */
let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors = new WeakMap<Page, string[]>();

beforeAll(async () => {
  await ensureDashboardBuilt();
  [server, browser] = await Promise.all([
    reachablePublicUrl().then((vars) => startTestServer({ ...vars, LATCHKEY_DEV_MODE: "true" })),
    chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS }),
  ]);
});
afterEach(async () => {
  const errors = contexts.flatMap((context) => context.pages()).flatMap((page) => pageErrors.get(page) ?? []);
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  if (errors.length) throw new Error(`uncaught errors in the dashboard:\n${errors.join("\n")}`);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

async function openDashboard(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  pageErrors.set(page, errors);
  await page.goto(`${server.url}/dashboard/`);
  return page;
}

const newEmail = () => `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = "correct horse battery";

/** Signs a new owner up through the sign-in widget's "Sign up" link; ends on the Projects page. */
async function signUp(page: Page): Promise<string> {
  const email = newEmail();
  await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
  await page.getByRole("link", { name: "Sign up" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
  return email;
}

/** How far the page's content reaches past the viewport's width, in CSS pixels (0: nothing overflows). */
const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("the admin dashboard", () => {
  it("serves the app with the internal project's address and key, framed by no one", async () => {
    const response = await fetch(`${server.url}/dashboard/projects`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await response.text();
    const config = JSON.parse(/<script type="application\/json" id="latchkey-dashboard-config">(.*?)<\/script>/.exec(html)![1]!);
    expect(config).toEqual({ baseUrl: server.env.publicUrl, projectId: "internal", publishableClientKey: server.env.seedKeys.publishableClientKey });
  });

  it("signs a new owner up with the widgets, creates a project and lists it", async () => {
    const page = await openDashboard();
    await page.waitForURL((url) => url.pathname === "/dashboard/sign-in");
    const email = await signUp(page);
    expect(new URL(page.url()).pathname).toBe("/dashboard/projects");
    await page.getByRole("button", { name: email }).waitFor();
    await page.getByText("No projects yet.").waitFor();

    // The form says what is wrong before anything is sent.
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByText("Give the project a name.").waitFor();

    await page.getByLabel("Project name").fill("Web shop");
    await page.getByLabel("Description").fill("Where customers sign in");
    await page.getByRole("button", { name: "Create project" }).click();
    const list = page.getByRole("list", { name: "Your projects" });
    await list.getByText("Web shop").waitFor();
    await list.getByText("Where customers sign in").waitFor();
    expect(await page.getByLabel("Project name").inputValue()).toBe("");

    // A reload (a fresh load of the route) still shows the signed-in owner's project, from the server.
    await page.reload();
    await page.getByRole("list", { name: "Your projects" }).getByText("Web shop").waitFor();
    expect(await page.getByRole("list", { name: "Your projects" }).getByRole("listitem").count()).toBe(1);

    // Signing out through the account menu leads back to sign-in, and the projects stay behind it.
    await page.getByRole("button", { name: email }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
    await page.goto(`${server.url}/dashboard/projects`);
    await page.waitForURL((url) => url.pathname === "/dashboard/sign-in");
  });

  it("fits a 360 px wide screen, signed out and signed in", async () => {
    const page = await openDashboard({ width: 360, height: 740 });
    await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);

    await signUp(page);
    await page.getByLabel("Project name").fill("A project with a rather long name that has to wrap on a phone");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("list", { name: "Your projects" }).getByRole("listitem").waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
  });
});
