import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { at, createUserWithPassword, demoProject, errorsOf, newEmail, openDemo, useDemoForFile } from "./support/demo-e2e.js";

/**
 * A person without a mouse: on the script-tag demo, sign in and sign out again using only Tab, typing,
 * Enter and the arrow keys, as a keyboard or switch user would.
 */
useDemoForFile();

/** Presses Tab until the focused element matches `selector`; fails if it is never reached. */
async function tabTo(page: Page, selector: string, maxPresses = 15): Promise<void> {
  for (let presses = 0; presses < maxPresses; presses++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`${selector} was not reached with ${maxPresses} Tab presses; focus is on ${focused}`);
}

describe("plain demo: keyboard only", () => {
  it("signs in and signs out with the keyboard alone", async () => {
    const project = await demoProject();
    const email = newEmail("alan");
    await createUserWithPassword(project, email, "typed not clicked");
    const page = await openDemo(project, "/demo/handler/sign-in");
    await page.getByLabel("Email").waitFor();

    await tabTo(page, "input[name=email]");
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("password");
    await page.keyboard.type("typed not clicked");
    await page.keyboard.press("Enter");

    await page.waitForURL(at("/demo/"));
    await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();

    // The user button's menu: Enter opens it on its first item, ArrowDown moves to "Sign out".
    await tabTo(page, "auth-user-button button[aria-haspopup=menu]");
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Account settings");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Sign out");
    await page.keyboard.press("Enter");

    await page.getByRole("heading", { name: "You are signed out" }).waitFor();
    expect(errorsOf(page)).toEqual([]);
  });
});
