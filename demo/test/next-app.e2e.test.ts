import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestProject, TestServer } from "../../packages/server/test/support/test-server.js";
import { startNext, startNextFixture, type RunningNext } from "./support/next-app.js";
import { releaseChromium } from "./support/shared-chromium.js";

/**
 * The Next.js App Router fixture (demo/next) as a customer's app: built with `next build` against the BUILT
 * packages (support/next-app.ts, one build per run for every file that uses the app), served by `next start`,
 * and used in Debian's Chromium against a real Latchkey server.
 */

const PASSWORD = "next to nothing";

let latchkey: TestServer;
let project: TestProject;
let browser: Browser;
let next: RunningNext | undefined;
let nextUrl: string;

beforeAll(async () => {
  const fixture = await startNextFixture("Next.js fixture");
  ({ latchkey, browser, project } = fixture);
  next = await startNext("start", fixture.appEnv);
  nextUrl = `${next.url}/`;
}, 600_000);

afterAll(async () => {
  await Promise.all([next?.close(), releaseChromium(browser), latchkey?.close()]);
});

describe("Next.js App Router app", () => {
  it("server-renders the page without errors, with the provider, the sign-in tag and the user still loading", async () => {
    const response = await fetch(nextUrl);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Latchkey with Next.js</h1>");
    // The provider's appearance is on <auth-app> already in the HTML, so the first paint has the brand colour.
    expect(html).toContain('<auth-app style="--auth-color-primary:#0f766e">');
    expect(html).toContain('<p role="status">Loading…</p>');
    // `noRedirect` is a property Lit declares on the element, so React sets it when the page hydrates (before the
    // user has loaded, which is when a redirect could happen) instead of writing an attribute into the HTML.
    expect(html).toMatch(/<auth-sign-in>\s*<\/auth-sign-in>/);
    // What Next.js writes when rendering failed: its error page, or a component left to the browser with a digest.
    expect(html).not.toContain("__next_error__");
    expect(html).not.toContain("data-dgst");
  });

  it("upgrades the sign-in widget, signs in against the Latchkey server and shows the user from useUser", async () => {
    const email = `next-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUser(email);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000); // a step waits on mail and argon2, seconds apiece on a loaded 2-core machine
    // Hydration mismatches and failed scripts surface as console errors or page errors.
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(`${message.text()} (${message.location().url})`));
    page.on("pageerror", (error) => problems.push(error.message));
    try {
      await page.goto(nextUrl);
      await page.getByText("Signed out", { exact: true }).waitFor();
      // The form exists only once the element has upgraded in the browser: the server sent an empty tag.
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      const submit = page.getByRole("button", { name: "Sign in", exact: true });
      expect(await submit.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe("rgb(15, 118, 110)");
      await submit.click();

      // The app's own status line (the widget also says "You are signed in as …").
      await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
      await page.getByRole("button", { name: email }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the widgets' sign-up page on its /handler/[...path] route, and a person signs up there", async () => {
    const email = `next-handler-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(`${message.text()} (${message.location().url})`));
    page.on("pageerror", (error) => problems.push(error.message));
    try {
      await page.goto(`${next!.url}/handler/sign-up`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      // The server has the account, made through the page.
      await expect
        .poll(async () => {
          const response = await fetch(`${latchkey.url}/api/v1/users?query=${encodeURIComponent(email)}`, { headers: project.headers("server") });
          return ((await response.json()) as { items: { primary_email: string }[] }).items.map((user) => user.primary_email);
        })
        .toEqual([email]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** A person with a verified email and a password, made as the customer's backend would (secret server key). */
async function createUser(email: string): Promise<void> {
  const response = await fetch(`${latchkey.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password: PASSWORD }),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
}
