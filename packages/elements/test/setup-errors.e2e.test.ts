import { chromium, type ConsoleMessage, type Page, type Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { CHROMIUM_ARGS, browser, demoProject, newEmail, openDemo, server, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";

/**
 * Issue 31's "errors that say what to fix", as a developer trying Latchkey meets them in Chromium, on the demo's
 * script-tag pages against the real server: a social sign-in that ends on an origin the project does not trust, one
 * started from a plain-http page that is not localhost, a wrong publishable key, and a server that has not answered.
 */
useDemoForFile();

const GITHUB = { "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } };

/** The page's console messages of `type`, as they arrive. */
function consoleOf(page: Page, type: "error" | "warning"): string[] {
  const messages: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === type) messages.push(message.text());
  });
  return messages;
}

describe("an origin the project does not trust", () => {
  it("ends a social sign-in on a page naming the origin and linking the project's Domains page", async () => {
    // Localhost not allowed and no trusted domain: the demo's own origin is not trusted.
    const project = await demoProject({ ...GITHUB, "domains.allowLocalhost": false });
    const page = await openDemo(project, `${server.env.publicUrl}/demo/handler/sign-in`);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.getByLabel("Email address").fill(newEmail("octo"));
    await page.getByRole("button", { name: "Continue" }).click();

    await page.getByRole("heading", { name: "Sign-in cannot return to this site" }).waitFor();
    const origin = new URL(server.env.publicUrl).origin;
    expect(await page.locator("main").innerText()).toContain(`${origin} is not a trusted domain of the project "Demo e2e"`);
    const domains = page.getByRole("link", { name: "Domains page" });
    expect(await domains.getAttribute("href")).toBe(`${server.env.publicUrl}/dashboard/projects/${project.projectId}/domains`);
    expect(await page.content()).not.toContain("Stack Auth");
  });
});

describe("social sign-in on a plain-http page that is not localhost", () => {
  it("says it needs HTTPS or localhost, and the console says why", async () => {
    const project = await demoProject(GITHUB);
    // A name of this machine that the browser does not count as localhost: no secure context, no crypto.subtle.
    const insecure = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP insecure.test 127.0.0.1"] });
    try {
      const page = await insecure.newPage();
      page.setDefaultTimeout(30_000);
      const errors = consoleOf(page, "error");
      const url = new URL("/demo/handler/sign-in", server.url);
      url.hostname = "insecure.test";
      url.search = new URLSearchParams({ project_id: project.projectId, publishable_client_key: project.publishableClientKey }).toString();
      await page.goto(url.toString());
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);

      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      await page.getByRole("alert").filter({ hasText: "Social sign-in needs HTTPS or localhost." }).waitFor();
      expect(await page.getByText("Something went wrong").count()).toBe(0);
      await expect.poll(() => errors.join("\n")).toContain(`Latchkey: ${url.origin} is not a secure context`);
    } finally {
      await insecure.close();
    }
  });
});

describe("a wrong publishable client key", () => {
  it("shows people a plain message and tells the developer in the console which option to check", async () => {
    const project = await demoProject();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const errors = consoleOf(page, "error");
      const url = new URL("/demo/handler/sign-in", server.url);
      url.search = new URLSearchParams({ project_id: project.projectId, publishable_client_key: "pck_not-this-projects-key" }).toString();
      await page.goto(url.toString());

      await page.getByRole("alert").filter({ hasText: "Sign-in is not available right now. Please try again later." }).waitFor();
      expect(await page.locator("body").innerText()).not.toMatch(/x-stack|header|publishable/i);
      await expect.poll(() => errors.join("\n")).toContain(`Latchkey: publishableClientKey is not a key of project "${project.projectId}"`);
    } finally {
      await context.close();
    }
  });
});

describe("the user button before the server has answered", () => {
  it("shows that it is loading, not Sign in, until the first answer", async () => {
    const project = await demoProject();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      // The API does not answer yet: every request is held until the test lets them through.
      const held: Route[] = [];
      let holding = true;
      await page.route("**/api/v1/**", (route) => (holding ? void held.push(route) : route.continue()));
      const url = new URL("/demo/", server.url);
      url.search = new URLSearchParams({ project_id: project.projectId, publishable_client_key: project.publishableClientKey }).toString();
      await page.goto(url.toString());

      const button = page.locator("auth-user-button");
      await button.getByRole("status").filter({ hasText: "Loading…" }).waitFor();
      // The button is waiting on the project's settings, which the server has been asked for and not given.
      await expect.poll(() => held.some((route) => new URL(route.request().url()).pathname.endsWith("/projects/current"))).toBe(true);
      expect(await button.getByRole("link", { name: "Sign in" }).count()).toBe(0);

      holding = false;
      await Promise.all(held.splice(0).map((route) => route.continue()));
      await button.getByRole("link", { name: "Sign in" }).waitFor();
      expect(await button.getByRole("status").count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
