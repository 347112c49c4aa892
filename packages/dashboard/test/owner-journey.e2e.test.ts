import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../demo/test/support/ensure-built.js";
import { ownerWithProject, openSection, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * One owner's whole journey through the dashboard, across pages, as issue 20 lists it: create a project,
 * trust the app's domain, turn GitHub on with the shared keys (which, on a fresh machine, are the server's
 * development OpenID provider), make keys, add a webhook endpoint; then a person signs in with GitHub on the
 * demo app pointed at that project; the owner finds them in the users table, sees the webhook delivery,
 * revokes their session, revokes the keys and deletes the project. Each page's own tests go deeper; this one
 * proves the pages work together on one project, with what one page made used by the next.
 */
const harness = useDashboardHarness();

let receiver: Server;
let receiverUrl: string;
const receivedTypes: string[] = [];
beforeAll(async () => {
  // The plain demo page runs the elements' script-tag bundle.
  await ensureBuilt(["packages/elements/dist/latchkey.iife.js"]);
  receiver = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      receivedTypes.push((JSON.parse(body) as { type: string }).type);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** A person signs in with GitHub on the demo app of the project, in a browser of their own; resolves once signed in. */
async function signInWithGitHubOnDemo(projectId: string, publishableClientKey: string, email: string): Promise<Page> {
  const url = new URL("/demo/handler/sign-in", harness.server.url);
  url.searchParams.set("project_id", projectId);
  url.searchParams.set("publishable_client_key", publishableClientKey);
  // The app calls the server at its public URL: OAuth's authorize answer sets the cookie that binds the flow to this
  // browser on that host, where the provider sends the browser back.
  url.searchParams.set("base_url", harness.server.env.publicUrl);
  const page = await harness.open({ path: `${url.pathname}${url.search}` });
  await page.getByRole("button", { name: "Continue with GitHub" }).click();
  // The development provider asks which email to continue as.
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((at) => at.pathname === "/demo/");
  await page.locator("#signed-in").waitFor();
  return page;
}

describe("an owner's journey through the dashboard", () => {
  it("sets a project up, sees a GitHub sign-in on the demo arrive as a user and a webhook, revokes, and deletes the project", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const projectName = (await page.getByRole("heading", { level: 1 }).textContent())!;

    // Domains: the demo app's origin, with its handler pages.
    await openSection(page, "Domains");
    const domains = page.getByRole("region", { name: "Trusted domains" });
    await domains.getByLabel("URL", { exact: true }).fill(harness.server.url);
    await domains.getByLabel("Handler path").fill("/demo/handler");
    await domains.getByRole("button", { name: "Add domain" }).click();
    await domains.getByRole("list", { name: "Trusted domains" }).getByText(harness.server.url).waitFor();

    // Authentication: GitHub with the shared keys; its callback URL is the server's.
    await openSection(page, "Authentication");
    const github = page
      .getByRole("list", { name: "OAuth providers" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "GitHub" }) });
    await github.getByRole("button", { name: "Set up GitHub" }).click();
    await github.getByRole("radio", { name: "On, with shared keys" }).check();
    await github.getByRole("button", { name: "Save GitHub" }).click();
    await github.getByTestId("github-status").getByText("On, with shared keys").waitFor();
    expect(await github.getByTestId("github-callback-url").textContent()).toBe(`${harness.server.env.publicUrl}/api/v1/auth/oauth/callback/github`);

    // Keys: a key set for the app, whose publishable key the demo gets.
    await openSection(page, "Keys");
    const keys = page.getByRole("region", { name: "Key sets", exact: true });
    await keys.getByRole("button", { name: "Create keys" }).click();
    await keys.getByLabel("Description").fill("Demo app");
    await keys.getByRole("button", { name: "Create keys" }).click();
    const shownOnce = keys.getByRole("region", { name: "New keys: Demo app" });
    const publishableClientKey = (await shownOnce.getByTestId("new-publishableClientKey").textContent())!;
    await shownOnce.getByRole("button", { name: "I have copied the keys" }).click();

    // Webhooks: an endpoint for new users.
    await openSection(page, "Webhooks");
    await page.getByLabel("Endpoint URL").fill(receiverUrl);
    await page.getByRole("checkbox", { name: "user.created", exact: true }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("heading", { level: 2, name: receiverUrl }).waitFor();

    // A person signs in with GitHub on the demo app of this project.
    const email = `octo-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const demo = await signInWithGitHubOnDemo(projectId, publishableClientKey, email);

    // The webhook reached the receiver, and the endpoint's deliveries say so.
    await expect.poll(() => receivedTypes, { timeout: 20_000 }).toContain("user.created");
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh" }).click();
          return page.getByRole("list", { name: "Deliveries" }).getByRole("listitem").filter({ hasText: "user.created" }).filter({ hasText: "Succeeded" }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);

    // Users: the table finds the person by email; their page shows the GitHub link and the demo's session.
    await openSection(page, "Users");
    await page.getByLabel("Search users").fill(email);
    const table = page.getByRole("table", { name: /users/i });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    await table.locator("tbody tr").getByRole("link").first().click();
    await page.getByText(email).first().waitFor();
    const sessions = page.getByRole("table", { name: "The user's active sessions" });
    await expect.poll(() => sessions.locator("tbody tr").count()).toBe(1);
    await sessions.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog", { name: "Revoke this session?" }).getByRole("button", { name: "Revoke session" }).click();
    await page.getByText("This user has no active sessions.").waitFor();

    // The demo's session is gone: once its access token is refreshed, the app is signed out.
    const refreshed = await demo.evaluate(async ({ base, projectId, key }) => {
      const refreshToken = document.cookie.match(new RegExp(`stack-refresh-${projectId}=([^;]+)`))?.[1];
      const response = await fetch(`${base}/api/v1/auth/sessions/current/refresh`, {
        method: "POST",
        headers: {
          "x-stack-project-id": projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": key,
          "x-stack-refresh-token": refreshToken ? decodeURIComponent(refreshToken) : "",
        },
      });
      return { hadToken: Boolean(refreshToken), status: response.status };
    }, { base: harness.server.url, projectId, key: publishableClientKey });
    expect(refreshed).toEqual({ hadToken: true, status: 401 });

    // Keys: revoked, the demo's publishable key no longer opens the project.
    await openSection(page, "Keys");
    const row = page.getByRole("region", { name: "Key sets table" }).getByRole("row").filter({ hasText: "Demo app" });
    await row.getByRole("button", { name: "Revoke Demo app" }).click();
    await page.getByRole("dialog", { name: "Revoke this key set?" }).getByRole("button", { name: "Revoke keys" }).click();
    await row.getByText("Revoked").waitFor();

    // Settings: deleted, after typing its name; it is gone from the owner's projects.
    await openSection(page, "Settings");
    await page.getByRole("button", { name: "Delete project" }).click();
    const dialog = page.getByRole("dialog", { name: /Delete/ });
    await dialog.getByLabel(/Type .* to confirm/).fill(projectName);
    await dialog.getByRole("button", { name: "Delete project" }).click();
    await page.waitForURL((at) => at.pathname === "/dashboard/projects");
    await page.getByText("No projects yet.").waitFor();
    const gone = await fetch(`${harness.server.url}/api/v1/projects/current`, {
      headers: { "x-stack-project-id": projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": publishableClientKey },
    });
    expect(gone.status).toBeGreaterThanOrEqual(400);
  });
});
