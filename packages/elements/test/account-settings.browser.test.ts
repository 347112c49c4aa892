import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail, type BrowserTestProject } from "./support/harness.js";
import { mount, unmountAll, until, type Mounted } from "./support/mount.js";
import { axe } from "./support/axe.js";

/** `<auth-account-settings>`: the sections it composes, what config and attributes hide, axe over all of it. */

const PASSWORD = "correct horse battery";
/** Everything the account page can show switched on. */
const EVERYTHING = { "apiKeys.enabled.user": true, "users.allowClientUserDeletion": true, "teams.allowClientTeamCreation": true, "auth.passkey.allowSignIn": true };

async function signedIn(project: BrowserTestProject, markup: string): Promise<Mounted & { email: string }> {
  const email = uniqueEmail();
  await createUser(project, { email, password: PASSWORD, displayName: "Ada Lovelace" });
  const page = await mount(project, markup);
  await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  return { ...page, email };
}

/** The section headings a person sees, in order. */
function headings(page: Mounted): string[] {
  return [...page.host.querySelectorAll("auth-account-settings section > h3")].map((h) => h.textContent!.trim());
}

/** Waits until every section has loaded its data (no "Loading…" left). */
async function loaded(page: Mounted): Promise<void> {
  await until(() => page.host.querySelector("auth-account-settings section") && !page.host.querySelector("[aria-busy=true]"), 10_000, "all sections loaded");
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("<auth-account-settings>", () => {
  afterEach(unmountAll);

  for (const theme of ["light", "dark"]) {
    it(`has no axe violations with every section shown (${theme})`, async () => {
      const project = await createProject({ configOverride: EVERYTHING });
      const page = await signedIn(project, "<auth-account-settings></auth-account-settings>");
      page.host.setAttribute("theme", theme);
      await loaded(page);
      // A key in the list, so its row is checked too.
      await page.app.createApiKey({ description: "CI deploys", expiresAt: null });
      await page.app.createTeam({ displayName: "Analytical Engines" });
      unmountAll();
      const again = await mount(project, "<auth-account-settings></auth-account-settings>");
      again.host.setAttribute("theme", theme);
      await again.app.signInWithCredential({ email: page.email, password: PASSWORD, noRedirect: true });
      await loaded(again);
      await until(() => again.host.querySelector("auth-api-key-settings li") && again.host.querySelector("auth-team-list-settings li"));
      expect(await axe(again.host)).to.deep.equal([]);
      // The dialogs too: the delete confirmation and a "leave team?" question.
      [...again.host.querySelectorAll<HTMLButtonElement>("auth-delete-account button")].find((b) => b.textContent === "Delete account")!.click();
      const dialog = await until(() => again.host.querySelector<HTMLDialogElement>("auth-delete-account dialog[open]"));
      expect(await axe(dialog)).to.deep.equal([]);
      dialog.close();
      again.host.querySelector<HTMLButtonElement>("auth-team-list-settings li button")!.click();
      const question = await until(() => again.host.querySelector<HTMLDialogElement>("auth-team-list-settings dialog[open]"));
      expect(await axe(question)).to.deep.equal([]);
      question.close();
    });
  }

  it("shows the sections in order under their headings, with API keys and danger zone when the project allows them", async () => {
    const project = await createProject({ configOverride: EVERYTHING });
    const page = await signedIn(project, "<auth-account-settings></auth-account-settings>");
    await loaded(page);
    expect(page.q("auth-account-settings h2").textContent).to.equal("Account settings");
    expect(headings(page)).to.deep.equal(["Profile", "Email addresses", "Password", "Passkeys", "Two-factor authentication", "Active sessions", "Teams", "Email notifications", "API keys", "Danger zone"]);
    // Each heading names its section for screen readers, and the section holds its element.
    const sections = [...page.host.querySelectorAll("auth-account-settings section")];
    expect(sections.map((s) => s.querySelector(":scope > [class~=lk]")?.localName)).to.deep.equal([
      "auth-profile-settings",
      "auth-email-settings",
      "auth-password-settings",
      "auth-passkey-settings",
      "auth-mfa-settings",
      "auth-session-settings",
      "auth-team-list-settings",
      "auth-notification-settings",
      "auth-api-key-settings",
      "auth-delete-account",
    ]);
    for (const section of sections) expect(document.getElementById(section.getAttribute("aria-labelledby")!)?.textContent).to.equal(section.querySelector("h3")!.textContent);
  });

  it("leaves out API keys and the danger zone when the project does not allow them", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-account-settings></auth-account-settings>");
    await loaded(page);
    expect(headings(page)).to.deep.equal(["Profile", "Email addresses", "Password", "Two-factor authentication", "Active sessions", "Teams", "Email notifications"]);
    expect(page.host.querySelector("auth-api-key-settings, auth-delete-account, auth-passkey-settings")).to.equal(null);
    // Nor is there a "create team" form when users may not create teams.
    expect(page.host.querySelector("auth-team-list-settings form")).to.equal(null);
  });

  it("hides each section named by a hide-… attribute", async () => {
    const project = await createProject({ configOverride: EVERYTHING });
    const page = await signedIn(
      project,
      "<auth-account-settings hide-profile hide-emails hide-password hide-passkeys hide-mfa hide-sessions hide-notifications hide-api-keys hide-danger-zone></auth-account-settings>",
    );
    await loaded(page);
    expect(headings(page)).to.deep.equal(["Teams"]);
    page.q("auth-account-settings").removeAttribute("hide-password");
    page.q("auth-account-settings").setAttribute("hide-teams", "");
    await until(() => headings(page).join() === "Password");
  });

  it("offers the sign-in page when nobody is signed in", async () => {
    const project = await createProject();
    const page = await mount(project, "<auth-account-settings></auth-account-settings>");
    const link = await until(() => page.q<HTMLAnchorElement>("auth-account-settings a[href='/handler/sign-in']"));
    expect(link.textContent).to.equal("Sign in");
    expect(page.host.querySelector("section")).to.equal(null);
    expect(await axe(page.host)).to.deep.equal([]);
  });
});
