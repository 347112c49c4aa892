import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestProject, TestServer } from "../../packages/server/test/support/test-server.js";
import { startNext, startNextFixture, type RunningNext } from "./support/next-app.js";
import { releaseChromium } from "./support/shared-chromium.js";

/**
 * Issue 31: a Next.js page with several readers of the session (demo/next/app/header: `<SignedIn>`/`<SignedOut>`,
 * `useUser()` as packages/react/README.md writes it, `<Protect>`, `useAuth()`, `useTeams()`, `useProject()`),
 * server-rendered and hydrated in Chromium, signed out and signed in, from `next build` + `next start` and from
 * `next dev`. The server renders "loading"; signed out, the session settles before hydration reaches the later
 * readers, and a reader that rendered "signed out" then broke hydration (React error #418 in production,
 * "Hydration failed because the server rendered text didn't match the client" in dev).
 */

const PASSWORD = "hydrated, not watered down";
const PAGE = "/header";

let latchkey: TestServer;
let project: TestProject;
let browser: Browser;
const servers: Partial<Record<"start" | "dev", RunningNext>> = {};

beforeAll(async () => {
  const fixture = await startNextFixture("Next.js hydration");
  ({ latchkey, browser, project } = fixture);
  // One production server and one dev server for the file; the dev server compiles the page once, here.
  [servers.start, servers.dev] = await Promise.all([startNext("start", fixture.appEnv, [PAGE]), startNext("dev", fixture.appEnv, [PAGE])]);
}, 600_000);

afterAll(async () => {
  await Promise.all([servers.start?.close(), servers.dev?.close(), releaseChromium(browser), latchkey?.close()]);
});

describe.each(["start", "dev"] as const)("a Next.js page with several session readers (next %s)", (mode) => {
  it("hydrates signed out without a mismatch, in each of 5 fresh browsers, then shows every reader's signed-out state", async () => {
    for (let visit = 1; visit <= 5; visit++) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const problems = watchConsole(page);
        await page.goto(`${servers[mode]!.url}${PAGE}`);
        await expectSettled(page, problems, {
          greeting: "Signed out",
          protect: "Members only: sign in to see more.",
          session: "Session: signed out",
          teams: "Teams: 0",
        });
        await page.getByRole("link", { name: "Sign in" }).waitFor();
        // A round trip after the page settled: every console message sent before it has arrived.
        await page.evaluate(() => document.readyState);
        expect(problems, `visit ${visit}`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 180_000);

  it("hydrates signed in without a mismatch, then shows every reader's signed-in state", async () => {
    const email = `hydration-${mode}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUser(email);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000); // argon2 takes seconds on a loaded 2-core machine
      await page.goto(`${servers[mode]!.url}${PAGE}`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText(`Hello ${email}`, { exact: true }).waitFor();

      // A fresh load with the session in the cookies: the server still renders "loading", the browser signs in.
      const reloaded = await context.newPage();
      const problems = watchConsole(reloaded);
      await reloaded.goto(`${servers[mode]!.url}${PAGE}`);
      await expectSettled(reloaded, problems, {
        greeting: `Hello ${email}`,
        protect: "Welcome to the members' area.",
        session: "Session: signed in",
        teams: /^Teams: \d+$/,
      });
      await reloaded.getByRole("button", { name: email }).waitFor();
      expect(await reloaded.getByRole("link", { name: "Sign in" }).count()).toBe(0);
      await reloaded.evaluate(() => document.readyState);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

/**
 * Console errors and warnings (React reports hydration mismatches there) and uncaught errors of a page, but for
 * Lit's notice that it runs its development build, which `next dev` serves on purpose (the `development` export
 * condition) and `next start` does not.
 */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error" && message.type() !== "warning") return;
    if (message.type() === "warning" && message.text().startsWith("Lit is in dev mode.")) return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/**
 * Waits until each reader shows its settled state (none of them still says it is loading); when one never does,
 * the failure shows what the page said and what its console reported.
 */
async function expectSettled(page: Page, problems: string[], expected: { greeting: string; protect: string; session: string; teams: string | RegExp }): Promise<void> {
  try {
    await page.getByRole("status").getByText(expected.greeting, { exact: true }).waitFor();
    await page.getByText(expected.protect, { exact: true }).waitFor();
    await page.getByText(expected.session, { exact: true }).waitFor();
    await page.getByText(expected.teams, { exact: true }).waitFor();
    await page.getByText("Project: Next.js hydration", { exact: true }).waitFor();
  } catch (error) {
    const shown = await page.locator("body").innerText().catch(() => "(no page)");
    throw new Error(`${(error as Error).message}\nThe page showed:\n${shown}\nIts console:\n${problems.join("\n")}`, { cause: error });
  }
}

/** A person with a verified email and a password, made as the customer's backend would (secret server key). */
async function createUser(email: string): Promise<void> {
  const response = await fetch(`${latchkey.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password: PASSWORD }),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
}
