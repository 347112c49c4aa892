import { describe, expect, it } from "vitest";
import { at, createUserWithPassword, demoProject, errorsOf, newEmail, openDemo, useDemoForFile } from "./support/demo-e2e.js";

/**
 * The React demo (demo/react, built with Vite, served at /demo/react/): the same sign-in through
 * @latchkey/react's AuthProvider, AuthSignIn, AuthUserButton and useUser.
 */
useDemoForFile();

describe("React demo", () => {
  it("signs in with email and password and shows the user in the button and the page", async () => {
    const project = await demoProject();
    const email = newEmail("barbara");
    await createUserWithPassword(project, email, "react to this");
    const page = await openDemo(project, "/demo/react/");

    await page.getByRole("heading", { name: "Sign in to the React demo" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("react to this");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.waitForURL(at("/demo/react/"));
    await page.getByRole("heading", { name: `Hello, ${email}` }).waitFor();
    await page.getByRole("button", { name: email }).waitFor();

    // Signing out through the button's menu brings the sign-in form back (useUser follows the store).
    await page.getByRole("button", { name: email }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to the React demo" }).waitFor();
    expect(errorsOf(page)).toEqual([]);
  });

  it("says a wrong password in a readable alert", async () => {
    const project = await demoProject();
    const email = newEmail("frances");
    await createUserWithPassword(project, email, "the real one");
    const page = await openDemo(project, "/demo/react/");

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a wrong one");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("Wrong email or password.");
    expect(errorsOf(page)).toEqual([]);
  });
});
