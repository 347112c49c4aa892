import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, createUserWithPassword, demoProject, newEmail, server, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";

/**
 * Password managers must see the elements' forms as login forms: Chromium's own password manager, asked
 * through chrome://password-manager-internals (its parsing log), reports which field it takes for the
 * username, the current password and the new password on the demo's sign-in, sign-up and account-settings
 * (password change) pages. (Whether it
 * then offers to save is browser UI that a headless run cannot show; the parsing is what decides it.)
 */
useDemoForFile();

let context: BrowserContext;
let internals: Page;
let profile: string;

beforeAll(async () => {
  // A persistent profile: the password manager is off in incognito-like contexts.
  profile = mkdtempSync(join(tmpdir(), "latchkey-pwm-"));
  context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  internals = await context.newPage();
  await internals.goto("chrome://password-manager-internals/");
});

afterAll(async () => {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
});

interface ParsedForm {
  usernameElement: string;
  passwordElement: string;
  newPasswordElement: string;
  origin: string;
}

/** The password manager's "Form parsing output" entries so far. */
async function parsedForms(): Promise<ParsedForm[]> {
  const log = await internals.evaluate(() => document.body.innerText);
  return [...log.matchAll(/Form parsing output: \{([\s\S]*?)\n\}/g)].map(([, block]) => {
    const value = (key: string) => new RegExp(`\\n\\s*${key} :\\s*(.*?)\\s*,?\\n`).exec(`\n${block}\n`)?.[1]?.trim() ?? "";
    return { usernameElement: value("Username element"), passwordElement: value("Password element"), newPasswordElement: value("New password element"), origin: value("Origin") };
  });
}

async function openPage(path: string, signInAs?: { email: string; password: string }): Promise<Page> {
  const project = await demoProject();
  if (signInAs) await createUserWithPassword(project, signInAs.email, signInAs.password);
  const page = await context.newPage();
  const url = new URL(signInAs ? "/demo/handler/sign-in" : path, server.url);
  url.searchParams.set("project_id", project.projectId);
  url.searchParams.set("publishable_client_key", project.publishableClientKey);
  await page.goto(url.toString());
  if (signInAs) {
    // The demo remembers the project for the tab: sign in first, then open the page asked for.
    await page.getByLabel("Email").fill(signInAs.email);
    await page.getByLabel("Password").fill(signInAs.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((target) => target.pathname === "/demo/");
    await page.goto(new URL(path, server.url).toString());
  }
  await page.locator("input[type=password]").first().waitFor();
  return page;
}

async function waitForParse(match: (form: ParsedForm) => boolean): Promise<ParsedForm[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const forms = await parsedForms();
    if (forms.some(match) || Date.now() > deadline) return forms;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("Chromium's password manager", () => {
  it("reads <auth-sign-in> as a login form: email as the username, the current password", async () => {
    const page = await openPage("/demo/handler/sign-in");
    const forms = await waitForParse((f) => f.passwordElement === "password" && f.usernameElement === "email");
    expect(forms).toContainEqual(expect.objectContaining({ usernameElement: "email", passwordElement: "password", newPasswordElement: "" }));
    await page.close();
  });

  it("reads <auth-sign-up> as a sign-up form: email as the username, a new password", async () => {
    const page = await openPage("/demo/handler/sign-up");
    const forms = await waitForParse((f) => f.newPasswordElement === "password" && f.usernameElement === "email");
    expect(forms).toContainEqual(expect.objectContaining({ usernameElement: "email", newPasswordElement: "password" }));
    await page.close();
  });

  it("reads the password change of <auth-account-settings> as a change-password form of the signed-in account", async () => {
    const page = await openPage("/demo/handler/account-settings#security", { email: newEmail("pwm"), password: "the current password" });
    await page.getByLabel("Current password").waitFor();
    // The account's email rides along in a hidden username field, so a saved password is filed under it.
    const forms = await waitForParse((f) => f.passwordElement === "current-password" && f.newPasswordElement === "password");
    expect(forms).toContainEqual(expect.objectContaining({ usernameElement: "username", passwordElement: "current-password", newPasswordElement: "password" }));
    await page.close();
  });
});
