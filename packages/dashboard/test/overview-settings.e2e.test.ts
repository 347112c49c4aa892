import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createClientApp } from "../../core/src/index.js";
import {
  OWNER_PASSWORD,
  expectNoAxeViolations,
  horizontalOverflow,
  openSection,
  ownerAdmin,
  ownerClientApp,
  ownerWithProject,
  useDashboardHarness,
} from "./support/dashboard-e2e.js";

/**
 * A project's Overview and Settings as its owner meets them (issue 20): the figures of users made through the
 * API, the charts and their text, a rename, a transfer to another team and the deletion. Requests from
 * 127.0.0.1 are trusted as the edge, so a user's `cf-ipcountry` header gives the Overview a country.
 */
const harness = useDashboardHarness({ LATCHKEY_TRUSTED_PROXIES: "127.0.0.1" });

/** Two users of the project, made by its owner: Ada (password), who then signs in from Germany, and Grace. */
async function createUsers(email: string, projectId: string) {
  const { server } = harness;
  const admin = await ownerAdmin(server, email, projectId);
  const ada = await admin.createUser({
    primaryEmail: `ada-${crypto.randomUUID().slice(0, 8)}@example.com`,
    primaryEmailAuthEnabled: true,
    password: OWNER_PASSWORD,
    displayName: "Ada",
  });
  const grace = await admin.createUser({ displayName: "Grace" });
  const keys = await admin.createInternalApiKey({
    description: "test",
    expiresAt: new Date(Date.now() + 86_400_000),
    hasPublishableClientKey: true,
    hasSecretServerKey: false,
    hasSuperSecretAdminKey: false,
  });
  const fromGermany: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), "cf-ipcountry": "DE" } });
  const user = createClientApp({
    projectId,
    publishableClientKey: keys.publishableClientKey!,
    baseUrl: server.url,
    tokenStore: "memory",
    fetch: fromGermany,
    navigate: () => {},
  });
  await user.signInWithCredential({ email: ada.primaryEmail!, password: OWNER_PASSWORD, noRedirect: true });
  await user.getUser();
  return { ada, grace };
}

/** The figure shown under a label in the Users card. */
const figure = (page: Page, label: string) => page.locator(".overview-figures div", { has: page.locator("dt", { hasText: label }) }).locator("dd");

async function overviewWithUsers(options?: Parameters<typeof ownerWithProject>[1]) {
  const { page, email, projectId } = await ownerWithProject(harness, options);
  const users = await createUsers(email, projectId);
  await page.reload();
  await page.getByRole("list", { name: "Recent sign-ups" }).getByRole("link", { name: "Grace" }).waitFor();
  return { page, email, projectId, ...users };
}

describe("a project's Overview", () => {
  it("says there is nobody yet in an empty project", async () => {
    const { page } = await ownerWithProject(harness);
    await page.getByText("No sign-ups yet.").waitFor();
    expect(await figure(page, "Total users").textContent()).toBe("0");
    await page.getByText("No sign-ups in the last 31 days.").waitFor();
    await page.getByText("No user has a sign-in method yet.").waitFor();
    await page.getByText("No countries known yet.", { exact: false }).waitFor();
  });

  it("shows the users made through the API: counts, charts with their figures, methods, newest users and countries", async () => {
    const { page, projectId, ada, grace } = await overviewWithUsers();
    expect(await figure(page, "Total users").textContent()).toBe("2");
    expect(await figure(page, "Sign-ups, last 31 days").textContent()).toBe("2");
    expect(await figure(page, "Active today").textContent()).toBe("1");

    // Each chart is a named image drawn on a canvas, and its figures are in a table for screen readers.
    for (const name of ["daily sign-ups", "daily active users"]) {
      const chart = page.getByRole("img", { name: `Bar chart: ${name} over the last 31 days` });
      await chart.locator("canvas").first().waitFor();
      expect((await chart.boundingBox())!.height).toBeGreaterThan(100);
    }
    const signUps = page.getByRole("table", { name: "Daily sign-ups by day (UTC)" });
    expect(await signUps.getByRole("row").count()).toBe(32);
    expect(await signUps.getByRole("row").last().getByRole("cell").last().textContent()).toBe("2");
    await page.getByText("Today (UTC): 2 sign-ups.", { exact: false }).waitFor();

    // The newest first, each linking to the user's page.
    const recent = page.getByRole("list", { name: "Recent sign-ups" }).getByRole("link");
    expect(await recent.allTextContents()).toEqual(["Grace", "Ada"]);
    expect(await recent.first().getAttribute("href")).toBe(`/dashboard/projects/${projectId}/users/${grace.id}`);
    expect(await recent.last().getAttribute("href")).toBe(`/dashboard/projects/${projectId}/users/${ada.id}`);

    expect(
      await page
        .getByRole("table", { name: /Sign-in methods/ })
        .getByRole("row", { name: "Password 1" })
        .count(),
    ).toBe(1);
    expect(
      await page
        .getByRole("table", { name: /country/ })
        .getByRole("row", { name: "Germany 1" })
        .count(),
    ).toBe(1);
  });

  it("fits a 360 px wide screen, the charts as wide as their cards", async () => {
    const { page } = await overviewWithUsers({ viewport: { width: 360, height: 740 } });
    const chart = page.getByRole("img", { name: "Bar chart: daily sign-ups over the last 31 days" });
    await chart.locator("canvas").first().waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    const [box, canvas] = await Promise.all([chart.boundingBox(), chart.locator("canvas").first().boundingBox()]);
    expect(Math.abs(canvas!.width - box!.width)).toBeLessThanOrEqual(1);
    expect(box!.width).toBeLessThan(360);

    // Widening the window widens the charts with it, each still as wide as its card.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction((narrow) => {
      const box = document.querySelector(".overview-chart-canvas")!.getBoundingClientRect().width;
      const canvas = document.querySelector(".overview-chart-canvas canvas")!.getBoundingClientRect().width;
      return box > narrow + 20 && Math.abs(canvas - box) <= 1;
    }, box!.width);
    expect(await horizontalOverflow(page)).toBe(0);
  });
});

describe("a project's Settings", () => {
  it("renames the project, checked before it is sent, and the heading shows it after a reload", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    await openSection(page, "Settings");
    await page.waitForURL((url) => url.pathname === `/dashboard/projects/${projectId}/settings`);
    const name = page.getByLabel("Project name");
    await name.fill("   ");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Give the project a name.").waitFor();

    await name.fill("Renamed shop");
    await page.getByLabel("Description").fill("Where customers sign in");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved.").waitFor();
    await page.getByRole("heading", { level: 1, name: "Renamed shop" }).waitFor();

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Renamed shop" }).waitFor();
    expect(await page.getByLabel("Description").inputValue()).toBe("Where customers sign in");
  });

  it("transfers the project to another of the owner's teams", async () => {
    const { page, email, projectId } = await ownerWithProject(harness);
    const owner = await ownerClientApp(harness.server, email);
    const agency = await owner.createTeam({ displayName: "Agency" });
    await openSection(page, "Settings");
    await page.getByText("Owned by").waitFor();

    // Asked for a team before anything is sent.
    await page.getByRole("button", { name: "Transfer project" }).click();
    await page.getByText("Choose the team to move the project to.").waitFor();

    await page.getByLabel("New owner team").selectOption({ label: "Agency" });
    await page.getByRole("button", { name: "Transfer project" }).click();
    const dialog = page.getByRole("dialog", { name: /^Transfer / });
    await dialog.getByRole("button", { name: "Transfer" }).click();
    await page.getByRole("status").getByText("Transferred.").waitFor();
    await page.getByText("Owned by Agency.").waitFor();

    const projects = await owner.listOwnedProjects();
    expect(projects.map((project) => [project.id, project.ownerTeamId])).toEqual([[projectId, agency.id]]);
  });

  it("deletes the project once its name is typed, and the owner lands on an updated list", async () => {
    const { page, email } = await ownerWithProject(harness);
    const name = (await page.getByRole("heading", { level: 1 }).textContent())!;
    await openSection(page, "Settings");
    await page.getByRole("button", { name: "Delete project" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${name}?` });
    const confirm = dialog.getByRole("button", { name: "Delete project" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill(name.toLowerCase());
    expect(await confirm.isDisabled()).toBe(true);

    // Cancelling keeps the project.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await (await ownerClientApp(harness.server, email)).listOwnedProjects()).length).toBe(1);

    await page.getByRole("button", { name: "Delete project" }).click();
    await dialog.getByLabel(/Type .* to confirm/).fill(name);
    await confirm.click();
    await page.waitForURL((url) => url.pathname === "/dashboard/projects");
    await page.getByText("No projects yet.").waitFor();
    expect(await (await ownerClientApp(harness.server, email)).listOwnedProjects()).toEqual([]);
  });

  it("fits a 360 px wide screen", async () => {
    const { page } = await ownerWithProject(harness, { viewport: { width: 360, height: 740 } });
    await openSection(page, "Settings");
    await page.getByRole("button", { name: "Delete project" }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await page.getByRole("button", { name: "Delete project" }).click();
    await page.getByRole("dialog").waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
  });
});

for (const colorScheme of ["light", "dark"] as const) {
  it(`passes axe on the Overview with data and on Settings in ${colorScheme} mode`, async () => {
    const { page, email } = await overviewWithUsers({ colorScheme });
    await expectNoAxeViolations(page);
    await (await ownerClientApp(harness.server, email)).createTeam({ displayName: "Second team" });
    await openSection(page, "Settings");
    await page.getByLabel("New owner team").waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Delete project" }).click();
    await page.getByRole("dialog").getByLabel(/Type .* to confirm/).waitFor();
    await expectNoAxeViolations(page);
  });
}
