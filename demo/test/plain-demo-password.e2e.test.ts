import { describe, expect, it } from "vitest";
import { at, createUserWithPassword, demoProject, errorsOf, linkTo, mailTo, newEmail, openDemo, server, useDemoForFile } from "./support/demo-e2e.js";

/**
 * The script-tag demo (demo/index.html + demo/handler.html) with email and password, as a person uses it
 * in Chromium: sign up, verify through the mailed link, sign out, sign in, a wrong password, and a
 * forgotten one reset through the mailed link.
 */
useDemoForFile();

describe("plain demo: email and password", () => {
  it("signs up, shows the user, verifies the email from the mail, signs out and signs in again", async () => {
    const project = await demoProject();
    const email = newEmail("ada");
    const page = await openDemo(project, "/demo/handler/sign-up");

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByLabel("Repeat password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();

    // After sign-up the app goes home, where the user button and the panel show the new account.
    await page.waitForURL(at("/demo/"));
    await page.getByRole("button", { name: email }).waitFor();
    await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();
    expect(await page.locator("#user-email-status").textContent()).toBe("not verified yet");

    // The verification mail links back to the demo's handler; opening it verifies the address.
    const mail = await mailTo(email);
    await page.goto(linkTo(mail, "/demo/handler/email-verification"));
    await page.getByText("Your email has been verified.").waitFor();
    await page.goto(`${server.url}/demo/`);
    await page.getByText("Email verified.").waitFor();

    // Sign out from the user button's menu: the page shows the signed-out panel and a sign-in link.
    await page.getByRole("button", { name: email }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "You are signed out" }).waitFor();
    await page.locator("auth-user-button").getByRole("link", { name: "Sign in" }).click();

    await page.waitForURL(at("/demo/handler/sign-in"));
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(at("/demo/"));
    await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();
    expect(await page.locator("#user-email-status").textContent()).toBe("verified");
    expect(errorsOf(page)).toEqual([]);
  });

  it("says a wrong password in a readable alert, without telling which field was wrong", async () => {
    const project = await demoProject();
    const email = newEmail("grace");
    await createUserWithPassword(project, email, "the right password");
    const page = await openDemo(project, "/demo/handler/sign-in");

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("Wrong email or password.");
    // Still on the sign-in page, still signed out, and the form can be sent again.
    expect(new URL(page.url()).pathname).toBe("/demo/handler/sign-in");
    expect(await page.getByRole("button", { name: "Sign in", exact: true }).isEnabled()).toBe(true);
    expect(errorsOf(page)).toEqual([]);
  });

  it("resets a forgotten password through the mailed link, then signs in with the new one", async () => {
    const project = await demoProject();
    const email = newEmail("linus");
    await createUserWithPassword(project, email, "an old password");
    const page = await openDemo(project, "/demo/handler/sign-in");

    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(at("/demo/handler/forgot-password"));
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();

    const mail = await mailTo(email);
    await page.goto(linkTo(mail, "/demo/handler/password-reset"));
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByLabel("Repeat new password").fill("a brand new password");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByText("Your password has been reset.").waitFor();

    await page.getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL(at("/demo/handler/sign-in"));
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a brand new password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(at("/demo/"));
    await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();
    expect(errorsOf(page)).toEqual([]);
  });
});
