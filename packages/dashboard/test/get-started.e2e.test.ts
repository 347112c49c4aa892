import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../demo/test/support/ensure-built.js";
import { createClientApp } from "../../core/src/index.js";
import { createProject, expectAccessibleAndNarrow, OWNER_PASSWORD, openSection, ownerAdmin, signUpOwner, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The page a new project opens on (issue 31): the `.env` block and the snippets carry the project's real id and
 * keys, and they work against the server; the checklist ticks itself as the project gets a trusted domain and
 * its first user.
 */
const harness = useDashboardHarness();

// The script-tag snippet loads the elements' bundle from the server.
beforeAll(() => ensureBuilt(["packages/elements/dist/latchkey.iife.js"]), 600_000);

/** The `.env` block on the page, as name → value. */
async function envValues(page: Page): Promise<Record<string, string>> {
  const text = (await page.getByLabel(".env block", { exact: true }).textContent())!;
  return Object.fromEntries(
    text
      .split("\n")
      .filter((line) => line.includes("=") && !line.startsWith("#"))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** Serves `html` at the root of an app on localhost, until the file's tests end; resolves to its address. */
async function serveAppPage(html: string): Promise<string> {
  const app = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  afterAllClose.push(() => new Promise<void>((resolve) => app.close(() => resolve())));
  return `http://localhost:${(app.address() as AddressInfo).port}/`;
}
const afterAllClose: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(afterAllClose.map((close) => close())));

/** "Done" or "To do" beside a checklist step. */
const stepState = (page: Page, label: string) =>
  page.getByRole("list", { name: "Setup checklist" }).getByRole("listitem").filter({ hasText: label }).locator(".get-started-state").textContent();

describe("a new project's Get started page", () => {
  it("hands over the id and keys in snippets that work, and ticks the checklist as a domain and a first user arrive", async () => {
    const { server } = harness;
    const page = await harness.open();
    const email = await signUpOwner(page);
    const projectId = await createProject(page, "Web shop");
    const nav = page.getByRole("navigation", { name: "Project" });
    expect(await nav.getByRole("link", { name: "Get started" }).getAttribute("aria-current")).toBe("page");

    // The .env block: the server's address, the project, its publishable key (as the server lists it) and,
    // this once, the secret server key, which reaches the project's API as a server.
    const env = await envValues(page);
    const admin = await ownerAdmin(server, email, projectId);
    const [listed] = await admin.listPublishableClientKeys();
    expect(env).toEqual({
      LATCHKEY_BASE_URL: server.env.publicUrl,
      LATCHKEY_PROJECT_ID: projectId,
      LATCHKEY_PUBLISHABLE_CLIENT_KEY: listed!.publishableClientKey,
      LATCHKEY_SECRET_SERVER_KEY: expect.any(String),
    });
    const asServer = await fetch(`${server.url}/api/v1/users?limit=1`, {
      headers: { "x-stack-project-id": projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": env.LATCHKEY_SECRET_SERVER_KEY! },
    });
    expect(asServer.status).toBe(200);
    // Made here, the key set never expires.
    const [keySet] = await admin.listInternalApiKeys();
    expect(keySet!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 365 * 86_400_000);

    // Each snippet names the real project and key.
    const scriptTag = (await page.getByLabel("script tag snippet", { exact: true }).textContent())!;
    const react = (await page.getByLabel("React snippet", { exact: true }).textContent())!;
    const next = (await page.getByLabel("Next.js snippet", { exact: true }).textContent())!;
    for (const snippet of [scriptTag, react]) {
      expect(snippet).toContain(`projectId${snippet === react ? "=" : ": "}"${projectId}"`);
      expect(snippet).toContain(env.LATCHKEY_PUBLISHABLE_CLIENT_KEY);
    }
    expect(react).toContain(`location.pathname.startsWith("/handler/")`);
    expect(next).toContain("app/handler/[...path]/page.tsx");
    expect(next).toContain("process.env.LATCHKEY_PUBLISHABLE_CLIENT_KEY");

    // The script-tag snippet, pasted into a page of an app on localhost (trusted while developing), shows the
    // project's sign-in. The app is a real local server: Chromium lets only a local page load from a local server.
    const appPage = await page.context().newPage();
    const appUrl = await serveAppPage(`<!doctype html><html lang="en"><body>${scriptTag}</body></html>`);
    await appPage.goto(appUrl);
    await appPage.getByLabel("Email").waitFor();
    await appPage.getByRole("link", { name: "Sign up" }).waitFor();
    await appPage.close();

    // The checklist: nothing done yet in a new project.
    expect(await stepState(page, "Trusted domain added")).toBe("To do");
    expect(await stepState(page, "First user signed up")).toBe("To do");
    expect(await stepState(page, "Email server set up")).toBe("To do");
    expect(await stepState(page, "OAuth keys of your own")).toBe("To do");
    await page.getByText("0 of 4 done.").waitFor();

    // A trusted domain added on the Domains page (the checklist's own link leads there) is ticked at once.
    await page.getByRole("link", { name: "Add your app's domain" }).click();
    const domains = page.getByRole("region", { name: "Trusted domains" });
    await domains.getByLabel("URL", { exact: true }).fill("https://shop.example.com");
    await domains.getByRole("button", { name: "Add domain" }).click();
    await domains.getByRole("list", { name: "Trusted domains" }).getByText("https://shop.example.com").waitFor();
    await openSection(page, "Get started");
    await expect.poll(() => stepState(page, "Trusted domain added")).toBe("Done");

    // A first user signs up in the app, with the key from the page: the open page ticks it by itself.
    const app = createClientApp({ projectId, publishableClientKey: env.LATCHKEY_PUBLISHABLE_CLIENT_KEY!, baseUrl: server.url, tokenStore: "memory" });
    await app.signUpWithCredential({ email: `first-${crypto.randomUUID().slice(0, 8)}@example.com`, password: OWNER_PASSWORD, noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });
    await expect.poll(() => stepState(page, "First user signed up")).toBe("Done");
    await page.getByText("2 of 4 done.").waitFor();
    expect(await stepState(page, "Email server set up")).toBe("To do");

    await expectAccessibleAndNarrow(page);

    // Back later: the publishable key is still shown (it is public), the secret one is not.
    await page.reload();
    await page.getByRole("heading", { name: "Your app's settings" }).waitFor();
    expect(await envValues(page)).toEqual({ LATCHKEY_BASE_URL: server.env.publicUrl, LATCHKEY_PROJECT_ID: projectId, LATCHKEY_PUBLISHABLE_CLIENT_KEY: listed!.publishableClientKey });
  });

  it("offers new app keys, never expiring unless asked, when the project has no publishable key", async () => {
    const { server } = harness;
    const page = await harness.open();
    const email = await signUpOwner(page);
    const projectId = await createProject(page);
    const admin = await ownerAdmin(server, email, projectId);
    for (const keySet of await admin.listInternalApiKeys()) await admin.revokeInternalApiKey(keySet.id);

    await page.reload();
    const form = page.getByRole("form", { name: "Create app keys" });
    await form.getByText("This project has no publishable client key yet.").waitFor();
    expect((await envValues(page)).LATCHKEY_PUBLISHABLE_CLIENT_KEY).toBe("<your publishable client key>");
    expect(await form.getByLabel("Keys expire after").inputValue()).toBe("never");
    await form.getByRole("button", { name: "Create app keys" }).click();

    await page.getByText("Copy the secret server key now.").waitFor();
    const env = await envValues(page);
    const [listed] = await admin.listPublishableClientKeys();
    expect(env.LATCHKEY_PUBLISHABLE_CLIENT_KEY).toBe(listed!.publishableClientKey);
    expect(listed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 365 * 86_400_000);
    expect(await page.getByRole("form", { name: "Create app keys" }).count()).toBe(0);

    // Once copied, the secret leaves the page.
    await page.getByRole("button", { name: "I have copied the secret key" }).click();
    await expect.poll(async () => Object.keys(await envValues(page))).toEqual(["LATCHKEY_BASE_URL", "LATCHKEY_PROJECT_ID", "LATCHKEY_PUBLISHABLE_CLIENT_KEY"]);
  });
});
