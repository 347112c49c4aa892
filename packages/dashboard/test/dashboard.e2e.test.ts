import { describe, expect, it } from "vitest";
import {
  createAndOpenProject,
  createProject,
  expectNoAxeViolations,
  horizontalOverflow,
  openSection,
  signUpOwner,
  useDashboardHarness,
} from "./support/dashboard-e2e.js";

/**
 * The admin dashboard as an owner meets it (issue 20): the real server serves the built app at /dashboard/,
 * the owner signs up through our own widgets on the `internal` project, creates a project, sees it listed and
 * opens it; and the pages fit a 360 px phone.
 */
const harness = useDashboardHarness();

describe("the admin dashboard", () => {
  it("serves the app with the internal project's address and key, framed by no one", async () => {
    const { server } = harness;
    const response = await fetch(`${server.url}/dashboard/projects`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await response.text();
    const config = JSON.parse(/<script type="application\/json" id="latchkey-dashboard-config">(.*?)<\/script>/.exec(html)![1]!);
    expect(config).toEqual({ baseUrl: server.env.publicUrl, projectId: "internal", publishableClientKey: server.env.seedKeys.publishableClientKey, paymentsTestMode: true });
  });

  it("signs a new owner up with the widgets, creates a project and lists it", async () => {
    const page = await harness.open();
    await page.waitForURL((url) => url.pathname === "/dashboard/sign-in");
    const email = await signUpOwner(page);
    expect(new URL(page.url()).pathname).toBe("/dashboard/projects");
    await page.getByRole("button", { name: email }).waitFor();
    await page.getByText("No projects yet.").waitFor();

    // The form says what is wrong before anything is sent.
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByText("Give the project a name.").waitFor();

    await page.getByLabel("Project name").fill("Web shop");
    await page.getByLabel("Description").fill("Where customers sign in");
    await page.getByRole("button", { name: "Create project" }).click();
    // A new project opens on its Get started page; the breadcrumb leads back to the list.
    await page.getByRole("heading", { name: "Your app's settings" }).waitFor();
    await page.getByRole("link", { name: "Projects", exact: true }).click();
    const list = page.getByRole("list", { name: "Your projects" });
    await list.getByText("Web shop").waitFor();
    await list.getByText("Where customers sign in").waitFor();
    expect(await page.getByLabel("Project name").inputValue()).toBe("");

    // A reload (a fresh load of the route) still shows the signed-in owner's project, from the server.
    await page.reload();
    await page.getByRole("list", { name: "Your projects" }).getByText("Web shop").waitFor();
    expect(await page.getByRole("list", { name: "Your projects" }).getByRole("listitem").count()).toBe(1);

    // Signing out through the account menu leads back to sign-in, and the projects stay behind it.
    await page.getByRole("button", { name: email }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
    await page.goto(`${harness.server.url}/dashboard/projects`);
    await page.waitForURL((url) => url.pathname === "/dashboard/sign-in");
  });

  it("opens a project with its sections, each at its own address, and says so for a project that is not the owner's", async () => {
    const page = await harness.open();
    await signUpOwner(page);
    const projectId = await createAndOpenProject(page, "Sections");
    expect(new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}`);
    // The breadcrumb names the project, not its id, and leads back to the projects.
    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await breadcrumb.getByText("Sections", { exact: true }).waitFor();
    expect(await breadcrumb.textContent()).not.toContain(projectId);
    expect(await breadcrumb.getByRole("link", { name: "Projects" }).getAttribute("href")).toBe("/dashboard/projects");
    const nav = page.getByRole("navigation", { name: "Project" });
    expect(await nav.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");

    await openSection(page, "Users");
    await page.waitForURL((url) => url.pathname === `/dashboard/projects/${projectId}/users`);
    expect(await nav.getByRole("link", { name: "Users" }).getAttribute("aria-current")).toBe("page");
    expect(await nav.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBeNull();

    // A deep link opens the section directly.
    await page.goto(`${harness.server.url}/dashboard/projects/${projectId}/domains`);
    expect(await nav.getByRole("link", { name: "Domains" }).getAttribute("aria-current")).toBe("page");

    // The internal project exists but this owner does not own it: the server's refusal, not the sections.
    await page.goto(`${harness.server.url}/dashboard/projects/internal`);
    await page.getByRole("alert").getByText("Could not open this project").waitFor();
    expect(await page.getByRole("navigation", { name: "Project" }).count()).toBe(0);
  });

  it("fits a 360 px wide screen, signed out and signed in", async () => {
    const page = await harness.open({ viewport: { width: 360, height: 740 } });
    await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);

    await signUpOwner(page);
    await createProject(page, "A project with a rather long name that has to wrap on a phone");
    expect(await horizontalOverflow(page)).toBe(0);
    await page.getByRole("link", { name: "Projects", exact: true }).click();
    await page.getByRole("list", { name: "Your projects" }).getByRole("listitem").waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
  });

  for (const colorScheme of ["light", "dark"] as const) {
    it(`passes axe on sign-in and the projects page in ${colorScheme} mode`, async () => {
      const page = await harness.open({ colorScheme });
      await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
      await expectNoAxeViolations(page);
      await signUpOwner(page);
      await page.getByText("No projects yet.").waitFor();
      await expectNoAxeViolations(page);
    });
  }
});
