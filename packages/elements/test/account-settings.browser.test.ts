import { expect } from "@esm-bundle/chai";
import { sendKeys, setViewport } from "@web/test-runner-commands";
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
  afterEach(() => {
    unmountAll();
    // Choosing a tab puts it in the address: the next test starts without one.
    history.replaceState(history.state, "", location.pathname + location.search);
  });

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
      // Every tab's panel in turn (axe skips hidden ones).
      for (const tab of again.host.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
        tab.click();
        await until(() => !document.getElementById(tab.getAttribute("aria-controls")!)!.hidden);
        expect(await axe(again.host), tab.textContent!).to.deep.equal([]);
      }
      // The dialogs too: the delete confirmation and a "leave team?" question.
      [...again.host.querySelectorAll<HTMLButtonElement>("auth-delete-account button")].find((b) => b.textContent === "Delete account")!.click();
      const dialog = await until(() => again.host.querySelector<HTMLDialogElement>("auth-delete-account dialog[open]"));
      expect(await axe(dialog)).to.deep.equal([]);
      dialog.close();
      again.q<HTMLButtonElement>("#" + again.q("[role=tabpanel] auth-team-list-settings").closest("[role=tabpanel]")!.getAttribute("aria-labelledby")).click();
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

  describe("section navigation", () => {
    afterEach(() => setViewport({ width: 800, height: 600 }));

    /** The visible tab panel's section headings, and which tab is selected. */
    function shown(page: Mounted): { tab: string; headings: string[] } {
      const tab = page.q("[role=tab][aria-selected=true]").textContent!.trim();
      const panel = [...page.host.querySelectorAll<HTMLElement>("[role=tabpanel]")].filter((p) => !p.hidden);
      expect(panel).to.have.length(1);
      return { tab, headings: [...panel[0]!.querySelectorAll("section > h3")].map((h) => h.textContent!.trim()) };
    }

    it("shows one tab's sections at a time; the keyboard moves between tabs and the hash follows", async () => {
      await setViewport({ width: 1024, height: 800 });
      const project = await createProject({ configOverride: EVERYTHING });
      const page = await signedIn(project, "<auth-account-settings></auth-account-settings>");
      await loaded(page);
      const tabs = [...page.host.querySelectorAll<HTMLButtonElement>("[role=tab]")];
      expect(tabs.map((t) => t.textContent!.trim())).to.deep.equal(["Profile", "Security", "Teams", "Email notifications", "API keys", "Danger zone"]);
      expect(page.q("[role=tablist]").getClientRects().length, "tabs shown when wide").to.equal(1);
      expect(page.q("select").getClientRects().length, "no menu when wide").to.equal(0);
      expect(shown(page)).to.deep.equal({ tab: "Profile", headings: ["Profile", "Email addresses"] });
      expect(location.hash).to.equal("");

      tabs[0]!.focus();
      await sendKeys({ press: "ArrowRight" });
      await until(() => shown(page).tab === "Security");
      expect(document.activeElement).to.equal(tabs[1]);
      expect(shown(page).headings).to.deep.equal(["Password", "Passkeys", "Two-factor authentication", "Active sessions"]);
      expect(location.hash).to.equal("#security");
      expect(tabs.map((t) => t.tabIndex)).to.deep.equal([-1, 0, -1, -1, -1, -1]);
      await sendKeys({ press: "End" });
      await until(() => shown(page).tab === "Danger zone");
      expect(location.hash).to.equal("#danger-zone");
      await sendKeys({ press: "ArrowRight" });
      await until(() => shown(page).tab === "Profile");

      tabs[2]!.click();
      await until(() => shown(page).tab === "Teams");
      expect(location.hash).to.equal("#teams");
    });

    it("opens the tab a deep link names, or the tab of the section it names, and follows hash changes", async () => {
      location.hash = "#security";
      const project = await createProject({ configOverride: EVERYTHING });
      const page = await signedIn(project, "<auth-account-settings></auth-account-settings>");
      await loaded(page);
      expect(shown(page).tab).to.equal("Security");
      expect(page.q("auth-password-settings").getClientRects().length).to.equal(1);

      location.hash = "#api-keys";
      await until(() => shown(page).tab === "API keys");
      // A section's own key opens its tab.
      location.hash = "#sessions";
      await until(() => shown(page).tab === "Security");
      // Unknown keys change nothing.
      location.hash = "#nowhere";
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(shown(page).tab).to.equal("Security");
    });

    it("offers a menu instead of tabs when narrow", async () => {
      await setViewport({ width: 360, height: 800 });
      const project = await createProject();
      const page = await signedIn(project, "<auth-account-settings></auth-account-settings>");
      await loaded(page);
      expect(page.q("[role=tablist]").getClientRects().length, "no tabs when narrow").to.equal(0);
      const menu = page.q<HTMLSelectElement>("select");
      expect(menu.getClientRects().length).to.equal(1);
      expect((menu.labels?.[0]?.textContent ?? "").trim()).to.match(/^Section/);
      // Tabs the project does not offer (API keys, danger zone) are not in the menu either.
      expect([...menu.options].map((o) => o.textContent!.trim())).to.deep.equal(["Profile", "Security", "Teams", "Email notifications"]);
      menu.value = "notifications";
      menu.dispatchEvent(new Event("change", { bubbles: true }));
      await until(() => shown(page).tab === "Email notifications");
      expect(shown(page).headings).to.deep.equal(["Email notifications"]);
      expect(location.hash).to.equal("#notifications");
      expect(document.documentElement.scrollWidth).to.be.at.most(innerWidth);
    });

    it("leaves out a tab whose sections are all hidden; each section element works on its own", async () => {
      const project = await createProject();
      const page = await signedIn(project, "<auth-account-settings hide-teams></auth-account-settings><auth-session-settings></auth-session-settings>");
      await loaded(page);
      expect([...page.host.querySelectorAll("[role=tab]")].map((t) => t.textContent!.trim())).to.deep.equal(["Profile", "Security", "Email notifications"]);
      // The sessions element outside the page lists this browser's session, whatever tab is chosen.
      const alone = page.q(":scope > auth-session-settings");
      await until(() => alone.querySelector("li")?.textContent?.includes("Current session"));
      expect(alone.getClientRects().length).to.equal(1);
    });
  });
});
