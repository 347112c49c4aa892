import { expect } from "@esm-bundle/chai";
import { createClientApp } from "@latchkey/core";
import { createElement as h, type ReactNode } from "react";
import { AuthProvider, Protect, usePermission } from "../src/index.js";
import { createProject, createUser, uniqueEmail, type BrowserTestProject } from "../../elements/test/support/harness.js";
import { render, textOf, waitFor, type Rendered } from "./support/render.js";

/**
 * `<Protect>` and `usePermission` against the real server: a project whose people may read invoices (which
 * contains viewing reports) from sign-up on, and whose billing permission nobody holds; teams for the
 * team-scoped checks.
 */

const PASSWORD = "correct horse battery staple";
const PERMISSIONS = {
  "rbac.permissions.view_reports": { scope: "project", containedPermissionIds: {} },
  "rbac.permissions.read_invoices": { scope: "project", containedPermissionIds: { view_reports: true } },
  "rbac.permissions.manage_billing": { scope: "project", containedPermissionIds: {} },
  "rbac.permissions.team_billing": { scope: "team", containedPermissionIds: {} },
  "rbac.defaultPermissions.signUp": { read_invoices: true },
  "teams.allowClientTeamCreation": true,
};

describe("Protect", () => {
  let project: BrowserTestProject;
  let rendered: Rendered | undefined;

  /** A person of the project (display name Ada) with an app of their own, not yet signed in. */
  async function person() {
    const email = uniqueEmail("protect");
    await createUser(project, { email, password: PASSWORD, displayName: "Ada", primaryEmailVerified: true });
    // Signing out stays on the test page instead of going to the after-sign-out page.
    const navigate = () => {};
    const app = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate });
    return { app, signIn: () => app.signInWithCredential({ email, password: PASSWORD, noRedirect: true }) };
  }

  /** The text of each `[data-part]` shown, in order: what the person sees of the page. */
  const shown = () => [...rendered!.container.querySelectorAll("[data-part]")].map((part) => textOf(part));

  before(async () => {
    project = await createProject({ configOverride: PERMISSIONS });
  });

  afterEach(() => {
    rendered?.unmount();
    rendered = undefined;
  });

  it("shows each part only to a signed-in person holding its project permission, the fallback otherwise", async () => {
    const { app, signIn } = await person();
    const part = (text: string) => h("p", { "data-part": "" }, text);
    rendered = render(
      h(
        AuthProvider,
        { app },
        h(Protect, { permission: "read_invoices", fallback: part("Sign in to see your invoices") }, part("Invoices")),
        h(Protect, { permission: "view_reports" }, part("Reports")),
        h(Protect, { permission: "manage_billing", fallback: part("Ask an admin for billing") }, part("Billing")),
        h(Protect, { condition: (user) => user.displayName === "Ada", fallback: part("Not Ada") }, part("Hello Ada")),
        h(Protect, { permission: "read_invoices", condition: (user) => user.displayName === "Grace" }, part("Grace's invoices")),
      ),
    );
    await waitFor("the signed-out fallbacks", () => shown().length === 3);
    expect(shown()).to.deep.equal(["Sign in to see your invoices", "Ask an admin for billing", "Not Ada"]);

    await signIn();
    // Contained permissions count; a permission nobody granted and a failed condition show the fallback.
    await waitFor("the parts for Ada", () => shown().includes("Invoices"));
    expect(shown()).to.deep.equal(["Invoices", "Reports", "Ask an admin for billing", "Hello Ada"]);
  });

  it("checks team permissions in the team given, and usePermission answers the same", async () => {
    const { app, signIn } = await person();
    await signIn();
    // The creator of a team administers it ($delete_team), but holds no team_billing there.
    const team = await app.createTeam({ displayName: "Acme" });
    function DeleteButton(): ReactNode {
      const canDelete = usePermission("$delete_team", { teamId: team.id });
      return h("p", { "data-part": "" }, canDelete === undefined ? "Checking…" : canDelete ? "Delete Acme" : "Cannot delete");
    }
    const part = (text: string) => h("p", { "data-part": "" }, text);
    rendered = render(
      h(
        AuthProvider,
        { app },
        h(DeleteButton),
        h(Protect, { teamId: team.id, permission: "$update_team" }, part("Rename Acme")),
        h(Protect, { teamId: team.id, permission: "team_billing", fallback: part("No team billing") }, part("Team billing")),
        // A project permission is not a permission in the team.
        h(Protect, { teamId: team.id, permission: "read_invoices", fallback: part("No invoices in Acme") }, part("Acme invoices")),
      ),
    );
    await waitFor("the team's parts", () => shown().length === 4 && !shown().includes("Checking…"));
    expect(shown()).to.deep.equal(["Delete Acme", "Rename Acme", "No team billing", "No invoices in Acme"]);

    await app.signOut();
    await waitFor("the signed-out parts", () => shown().includes("Cannot delete"));
    expect(shown()).to.deep.equal(["Cannot delete", "No team billing", "No invoices in Acme"]);
  });
});
