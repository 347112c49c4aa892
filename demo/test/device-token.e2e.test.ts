import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { recordFailedAttempt } from "../../packages/server/src/services/auth-throttle.js";
import { at, demoProject, errorsOf, newEmail, openDemo, server, useDemoForFile } from "./support/demo-e2e.js";

/**
 * Issue 30 §3, in Chromium: an attacker's wrong passwords block an account, and the browser that signed up to it
 * before still signs in at once, with the device token the client library kept in localStorage; another browser is
 * refused until the block has passed (the library waits it out, as Retry-After says, and retries).
 */
useDemoForFile();

const PASSWORD = "correct horse battery";

/** The statuses of the page's password sign-in requests, as they are answered. */
function signInStatuses(page: Page): number[] {
  const statuses: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/v1/auth/password/sign-in" && response.request().method() === "POST") statuses.push(response.status());
  });
  return statuses;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(at("/demo/"));
  await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();
}

describe("a browser that signed in to an account before", () => {
  it("signs in at once while an attacker's failures block the account; another browser waits", async () => {
    const project = await demoProject();
    const email = newEmail("owner");
    const page = await openDemo(project, "/demo/handler/sign-up");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(at("/demo/"));
    const kept = await page.evaluate((key) => localStorage.getItem(key), `latchkey-device-tokens:${project.projectId}`);
    expect(Object.keys(JSON.parse(kept ?? "{}"))).toEqual([email]);

    await page.getByRole("button", { name: email }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "You are signed out" }).waitFor();

    for (let i = 0; i < 5; i++) {
      const attempt = await fetch(`${server.url}/api/v1/auth/password/sign-in`, {
        method: "POST",
        headers: { ...project.headers("client"), "content-type": "application/json" },
        body: JSON.stringify({ email, password: `attacker ${i}` }),
      });
      expect(attempt.status).toBe(400);
    }
    // Four more on record: the account is blocked for 16 s from now, longer than the steps below take to start.
    for (let i = 0; i < 4; i++) await recordFailedAttempt(server.db, { kind: "password", projectId: project.projectId, account: email });
    const tokenless = () =>
      fetch(`${server.url}/api/v1/auth/password/sign-in`, {
        method: "POST",
        headers: { ...project.headers("client"), "content-type": "application/json" },
        body: JSON.stringify({ email, password: PASSWORD }),
      });

    const owner = signInStatuses(page);
    await page.locator("auth-user-button").getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL(at("/demo/handler/sign-in"));
    await signIn(page, email);
    expect(owner).toEqual([200]);
    // The block was (and is) there for a client without the token.
    expect((await tokenless()).status).toBe(429);

    const stranger = await openDemo(project, "/demo/handler/sign-in");
    const strangers = signInStatuses(stranger);
    await signIn(stranger, email);
    expect(strangers[0]).toBe(429);
    expect(strangers.at(-1)).toBe(200);
    expect([...errorsOf(page), ...errorsOf(stranger)]).toEqual([]);
  });
});
