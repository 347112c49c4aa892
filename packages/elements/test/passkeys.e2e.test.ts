import { describe, expect, it } from "vitest";
import { emailConfig } from "./support/browser-test-services.js";
import { createUserWithPassword, newEmail, openDemo, server, smtp, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../../server/src/services/projects.js";
import { createTestProject, type TestProject } from "../../server/test/support/test-server.js";
import { addVirtualAuthenticator } from "../../../demo/test/support/virtual-authenticator.js";

/**
 * Passkeys end to end: the demo in Chromium with Chrome's virtual authenticator (CDP WebAuthn domain) standing
 * in for a fingerprint reader, against the real server. Register from the passkey settings, sign out, then
 * sign in through the email field's passkey autofill, or with the passkey button; a page on an origin the
 * project does not trust is refused. (The virtual authenticator answers a conditional request by itself —
 * where a person would pick the passkey from the field's suggestions.)
 */
useDemoForFile();

const PASSWORD = "correct horse battery";
const PASSKEYS = { ...NEW_PROJECT_CONFIG_OVERRIDE, "auth.passkey.allowSignIn": true };


const demoUrl = (path: string) => new URL(path, server.url).toString();
const atHome = (url: URL) => url.pathname === "/demo/";

/** Signs a new user in with the password, registers a passkey in the settings, and signs out. */
async function userWithPasskey(project: TestProject) {
  const email = newEmail("passkey");
  await createUserWithPassword(project, email, PASSWORD);
  const page = await openDemo(project, "/demo/handler/sign-in");
  const authenticator = await addVirtualAuthenticator(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(atHome);

  // The passkey section, placed on the page as an app developer would.
  await page.evaluate(() => document.body.append(document.createElement("auth-passkey-settings")));
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByText("Passkey added.").waitFor();
  const { credentials } = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.rpId).toBe("localhost");
  expect(credentials[0]!.isResidentCredential).toBe(true);

  await page.goto(demoUrl("/demo/handler/sign-out"));
  await page.waitForURL(atHome);
  return { page, email, authenticator, signCount: credentials[0]!.signCount };
}

async function configure(project: TestProject, override: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.url}/api/v1/internal/config/override`, {
    method: "PATCH",
    headers: { ...project.headers("admin"), "content-type": "application/json" },
    body: JSON.stringify({ config_override_string: JSON.stringify(override) }),
  });
  expect(response.status).toBe(200);
}

describe("passkeys in the browser", () => {
  it("registers a passkey from the settings, then signs in through the email field's passkey autofill", async () => {
    const project = await createTestProject(server, "Passkeys e2e", { configOverride: { ...PASSKEYS, ...emailConfig(smtp) } });
    const { page, email, authenticator, signCount } = await userWithPasskey(project);

    await page.goto(demoUrl("/demo/handler/sign-in"));
    // The sign-in page asks for a passkey through the field (conditional UI), without any click.
    await page.waitForURL(atHome);
    await page.getByText(email).first().waitFor();
    const after = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(signCount);
  });

  it("signs in with the passkey button on a sign-in page that offers only passkeys", async () => {
    const project = await createTestProject(server, "Passkeys button", { configOverride: PASSKEYS });
    const { page, email } = await userWithPasskey(project);
    // Passwords off: no email field, so nothing asks for a passkey before the button does.
    await configure(project, { "auth.password.allowSignIn": false });

    await page.goto(demoUrl("/demo/handler/sign-in"));
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL(atHome);
    await page.getByText(email).first().waitFor();
  });

  it("frees the only sign-in address once a passkey is added, then holds passkey sign-in back as the last way in; the passkey still signs in", async () => {
    const project = await createTestProject(server, "Passkeys last way in", { configOverride: PASSKEYS });
    const { page, email } = await userWithPasskey(project);
    // Back in with the passkey (the sign-in page's email field asks for it), to the account sections.
    await page.goto(demoUrl("/demo/handler/sign-in"));
    await page.waitForURL(atHome);
    await page.evaluate(() => document.body.append(document.createElement("auth-email-settings"), document.createElement("auth-passkey-settings")));

    // The passkey is another way in: the address may stop signing in, after confirming.
    const row = page.locator("auth-email-settings li", { hasText: email });
    await row.getByRole("button", { name: "Stop using for sign-in" }).click();
    const dialog = page.getByRole("dialog", { name: "Stop using this address for sign-in?" });
    await dialog.getByRole("button", { name: "Stop using for sign-in" }).click();
    await row.getByRole("button", { name: "Use for sign-in" }).waitFor();

    // Now the passkey is the only way in: turning it off is held back, and the section says why.
    const reason = "Your passkey is your only way to sign in. To turn passkey sign-in off, first add another way to sign in.";
    await page.locator("auth-passkey-settings").getByText(reason).waitFor();
    expect(await page.locator("auth-passkey-settings").getByRole("button", { name: "Turn off passkey sign-in" }).isDisabled()).toBe(true);
    expect(await page.locator("auth-passkey-settings").getByRole("button", { name: "Turn off passkey sign-in" }).getAttribute("aria-describedby")).toBe(
      await page.locator("auth-passkey-settings [part=reason]").getAttribute("id"),
    );

    // Signed out, the passkey signs in again.
    await page.goto(demoUrl("/demo/handler/sign-out"));
    await page.waitForURL(atHome);
    await page.goto(demoUrl("/demo/handler/sign-in"));
    await page.waitForURL(atHome);
    await page.getByText(email).first().waitFor();
  });

  it("refuses to register a passkey on an origin the project does not trust", async () => {
    // The project trusts no domain and not localhost; the demo runs on localhost.
    const project = await createTestProject(server, "Passkeys untrusted", { configOverride: { ...PASSKEYS, "domains.allowLocalhost": false } });
    const email = newEmail("untrusted");
    await createUserWithPassword(project, email, PASSWORD);
    const page = await openDemo(project, "/demo/handler/sign-in");
    await addVirtualAuthenticator(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(atHome);

    await page.evaluate(() => document.body.append(document.createElement("auth-passkey-settings")));
    await page.getByRole("button", { name: "Add a passkey" }).click();
    const alert = page.locator("auth-passkey-settings [role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/is not a trusted domain of this project/);
    expect(await page.getByText("Passkey added.").count()).toBe(0);
    const me = await fetch(`${server.url}/api/v1/users?query=${encodeURIComponent(email)}`, { headers: project.headers("server") });
    const [user] = ((await me.json()) as { items: Array<{ passkey_auth_enabled: boolean }> }).items;
    expect(user?.passkey_auth_enabled).toBe(false);
  });
});
