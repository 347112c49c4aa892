import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../demo/test/support/ensure-built.js";
import { emailConfig } from "../../elements/test/support/browser-test-services.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../src/services/projects.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { addVirtualAuthenticator } from "../../../demo/test/support/virtual-authenticator.js";
import { releaseChromium, sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/**
 * Issue 16 §5 in Chromium: passkeys on the handler pages the server hosts. Chrome's virtual authenticator
 * (CDP WebAuthn domain) stands in for a fingerprint reader. Someone signs up on the hosted sign-up page, adds
 * a passkey on the hosted account-settings page, signs out, and signs in with the passkey on the hosted
 * sign-in page; the passkey belongs to the server's host name.
 *
 * The server's public URL is on `localhost` here (a host name: WebAuthn has no RP ids for IP addresses), and
 * the project trusts no domain and not localhost, so only the hosted-pages rule lets the passkey in.
 */
let server: TestServer;
let smtp: SmtpCapture;
let browser: Browser;

beforeAll(async () => {
  await ensureBuilt(["packages/elements/dist/latchkey.iife.js"]);
  const vars = await reachablePublicUrl();
  [server, smtp, browser] = await Promise.all([
    startTestServer({ ...vars, LATCHKEY_PUBLIC_URL: vars.LATCHKEY_PUBLIC_URL!.replace("127.0.0.1", "localhost") }),
    startSmtpCapture(),
    sharedChromium(),
  ]);
});
afterAll(async () => {
  await Promise.all([releaseChromium(browser), server?.close(), smtp?.close()]);
});


describe("passkeys on the hosted handler pages", () => {
  it("registers a passkey on the hosted account-settings page and signs in with it on the hosted sign-in page", async () => {
    const project: TestProject = await createTestProject(server, "Hosted passkeys", {
      configOverride: { ...NEW_PROJECT_CONFIG_OVERRIDE, ...emailConfig(smtp), "auth.passkey.allowSignIn": true, "domains.allowLocalhost": false },
    });
    const hosted = (page: string) => `${server.env.publicUrl}/projects/${project.projectId}/handler/${page}`;
    // Without a trusted domain the project has no home of its own: the hosted account-settings page stands in.
    const atAccountSettings = (url: URL) => url.href.startsWith(hosted("account-settings"));
    const email = `hosted-passkey-${crypto.randomUUID().slice(0, 8)}@example.com`;

    const context = await browser.newContext();
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000); // a step waits on mail and argon2, seconds apiece on a loaded 2-core machine
      page.on("pageerror", (error) => errors.push(error.message));
      const authenticator = await addVirtualAuthenticator(page);

      await page.goto(hosted("sign-up"));
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
      await page.getByLabel("Repeat password").fill("correct horse battery");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(atAccountSettings);

      // The hosted page's column is narrow: the sections are a menu there, not tabs.
      await page.getByLabel("Section").selectOption({ label: "Security" });
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.getByText("Passkey added.").waitFor();
      const { credentials } = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
      expect(credentials).toHaveLength(1);
      // The passkey belongs to the server's host name, where the hosted pages are.
      expect(credentials[0]!.rpId).toBe(new URL(server.env.publicUrl).hostname);
      expect(credentials[0]!.rpId).toBe("localhost");
      const signCount = credentials[0]!.signCount;

      await page.goto(hosted("sign-out"));
      await page.waitForURL(atAccountSettings);
      await page.getByText("Sign in to manage your account.").waitFor();

      // The hosted sign-in page asks for a passkey through the email field (conditional UI); the virtual
      // authenticator answers by itself, where a person would pick the passkey from the field's suggestions.
      await page.goto(hosted("sign-in"));
      await page.waitForURL(atAccountSettings);
      await page.getByText(email).first().waitFor();
      const after = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
      expect(after.credentials[0]!.signCount).toBeGreaterThan(signCount);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
