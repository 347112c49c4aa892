import { describe, expect, it } from "vitest";
import { at, createUserWithPassword, demoProject, errorsOf, mailTo, newEmail, openDemo, useDemoForFile } from "./support/demo-e2e.js";

/**
 * The script-tag demo with an emailed one-time code: the person asks for a code, reads it in the mail
 * and types it into the code step of the sign-in form.
 */
useDemoForFile();

describe("plain demo: one-time code", () => {
  it("signs an existing user in with the code from the mail", async () => {
    const project = await demoProject();
    const email = newEmail("margaret");
    await createUserWithPassword(project, email, "a password never typed here");
    const page = await openDemo(project, "/demo/handler/sign-in");

    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send sign-in code" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    expect(await page.locator("auth-sign-in").textContent()).toContain(email);

    const mail = await mailTo(email);
    expect(mail.code).toMatch(/^[A-Z0-9]{6}$/);
    await page.getByLabel("Code").fill(mail.code!);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.waitForURL(at("/demo/"));
    await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();
    await page.getByRole("button", { name: email }).waitFor();
    expect(errorsOf(page)).toEqual([]);
  });

  it("says so in an alert when the typed code is wrong, and keeps the code step", async () => {
    const project = await demoProject();
    const email = newEmail("katherine");
    const page = await openDemo(project, "/demo/handler/sign-in");

    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send sign-in code" }).click();
    const mail = await mailTo(email);
    // A code that differs from the mailed one in its last character.
    const wrong = mail.code!.slice(0, 5) + (mail.code!.endsWith("A") ? "B" : "A");
    await page.getByLabel("Code").fill(wrong);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("This code is not valid. Check it or ask for a new one.");
    expect(await page.getByLabel("Code").getAttribute("aria-invalid")).toBe("true");
    expect(new URL(page.url()).pathname).toBe("/demo/handler/sign-in");
    expect(errorsOf(page)).toEqual([]);
  });
});
