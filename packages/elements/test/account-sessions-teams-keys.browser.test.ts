import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createClientApp, type ClientApp } from "@latchkey/core";
import { createProject, createUser, signInElsewhere, uniqueEmail, waitForMail, type BrowserTestProject } from "./support/harness.js";
import { setLocale } from "../src/index.js";
import { countryName } from "../src/elements/account/user-agent.js";
import { alerts, fill, mount, unmountAll, until, untilFocused, type Mounted } from "./support/mount.js";
import { axe } from "./support/axe.js";

/**
 * `<auth-session-settings>`, `<auth-team-list-settings>`, `<auth-notification-settings>`,
 * `<auth-api-key-settings>` and `<auth-delete-account>` against the real server.
 */

const PASSWORD = "correct horse battery";

async function signedIn(project: BrowserTestProject, markup: string): Promise<Mounted & { email: string; userId: string }> {
  const email = uniqueEmail();
  const { userId } = await createUser(project, { email, password: PASSWORD, displayName: "Ada Lovelace", primaryEmailVerified: true });
  const page = await mount(project, markup);
  await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  return { ...page, email, userId };
}

/** Another browser: an app of its own, signed in to the same account. */
async function otherBrowser(project: BrowserTestProject, email: string): Promise<ClientApp> {
  const app = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate: () => {} });
  await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  return app;
}

const IPHONE_SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** The page signed in as an existing user. */
async function signedInAs(project: BrowserTestProject, email: string, markup: string): Promise<Mounted> {
  const page = await mount(project, markup);
  await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  return page;
}

function record(page: Mounted, types: string[]): CustomEvent[] {
  const events: CustomEvent[] = [];
  for (const type of types) page.host.addEventListener(type, (event) => events.push(event as CustomEvent));
  return events;
}

function button(root: Element, label: string): HTMLButtonElement {
  const found = [...root.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent!.trim() === label);
  if (!found) throw new Error(`No "${label}" button in ${root.textContent}`);
  return found;
}

const text = (element: Element) => element.textContent!.replace(/\s+/g, " ").trim();

describe("<auth-session-settings>", () => {
  afterEach(unmountAll);

  it("lists the sessions with this browser marked and revokes another one", async () => {
    const project = await createProject();
    const email = uniqueEmail();
    await createUser(project, { email, password: PASSWORD });
    await signInElsewhere(project, { email, password: PASSWORD, userAgent: IPHONE_SAFARI });
    const page = await mount(project, "<auth-session-settings></auth-session-settings>");
    const events = record(page, ["auth-session-revoked"]);
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const rows = await until(() => (page.host.querySelectorAll("li").length === 2 ? [...page.host.querySelectorAll("li")] : null));
    expect(await axe(page.host)).to.deep.equal([]);

    // This browser (the test's Chromium) first, marked, with no revoke button (signing out ends it); each with
    // the browser and system its User-Agent names, and the address it was last used from.
    expect(text(rows[0]!)).to.match(/^Chrome on (Linux|macOS|Windows|ChromeOS) Last used (now|\d+ seconds? ago) \(.+\) · (127\.0\.0\.1|::1) Current session$/);
    expect(rows[0]!.querySelector("button")).to.equal(null);
    expect(rows[0]!.querySelector("time")!.getAttribute("datetime")).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(text(rows[1]!)).to.match(/^Safari on iOS Last used (now|\d+ seconds? ago) \(.+\) · (127\.0\.0\.1|::1) Revoke$/);

    // Revoking asks first, naming the device: cancelled, the session stays.
    button(rows[1]!, "Revoke").click();
    let question = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    expect(text(question.querySelector("h3")!)).to.equal("Revoke this session?");
    expect(text(question)).to.include("Safari on iOS will be signed out and must sign in again.");
    expect(await axe(question)).to.deep.equal([]);
    button(question, "Cancel").click();
    await until(() => !page.host.querySelector("dialog"));
    expect(await page.app.listSessions()).to.have.length(2);
    button(rows[1]!, "Revoke").click();
    question = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    button(question, "Revoke").click();
    await until(() => page.host.querySelectorAll("li").length === 1);
    expect(text(page.q("auth-session-settings p[role=status]"))).to.equal("The session has been revoked. That device is signed out.");
    expect(events).to.have.length(1);
    const sessions = await page.app.listSessions();
    expect(sessions.map((s) => s.isCurrentSession)).to.deep.equal([true]);
    expect(events[0]!.detail.sessionId).to.not.equal(sessions[0]!.id);
  });
});

describe("<auth-session-settings> in another language", () => {
  afterEach(async () => {
    unmountAll();
    await setLocale("en");
  });

  it("names the device, and a country, in the page's language", async () => {
    await setLocale("de");
    const project = await createProject();
    const email = uniqueEmail();
    await createUser(project, { email, password: PASSWORD });
    await signInElsewhere(project, { email, password: PASSWORD, userAgent: WINDOWS_FIREFOX });
    const page = await signedInAs(project, email, "<auth-session-settings></auth-session-settings>");
    const rows = await until(() => (page.host.querySelectorAll("li").length === 2 ? [...page.host.querySelectorAll("li")] : null));
    expect(text(rows[1]!)).to.match(/^Firefox unter Windows /);
    // The server reports a country only from a trusted proxy (not in this run); its name comes from the browser.
    expect(countryName("GB")).to.equal("Vereinigtes Königreich");
    await setLocale("ja");
    expect(countryName("GB")).to.equal("イギリス");
    expect(countryName("not a country")).to.equal("not a country");
  });
});

describe("<auth-team-list-settings>", () => {
  afterEach(unmountAll);

  it("creates a team (selected), then leaves it after confirming", async () => {
    const project = await createProject({ configOverride: { "teams.allowClientTeamCreation": true } });
    const page = await signedIn(project, "<auth-team-list-settings></auth-team-list-settings>");
    const events = record(page, ["auth-team-created", "auth-team-left"]);
    const name = await until(() => page.q<HTMLInputElement>("auth-team-list-settings input[name=team-name]"));
    expect(text(page.q("auth-team-list-settings .lk-note"))).to.equal("You are not a member of any team.");
    expect(await axe(page.host)).to.deep.equal([]);

    fill(name, "Analytical Engines");
    page.q<HTMLButtonElement>("auth-team-list-settings button[type=submit]").click();
    const row = await until(() => page.host.querySelector("auth-team-list-settings li"));
    await until(() => text(row).includes("Selected"));
    expect(text(row)).to.equal("Analytical Engines Selected Leave");
    expect(text(page.q("auth-team-list-settings p[role=status]"))).to.equal("The team Analytical Engines has been created.");
    expect(events.map((e) => e.type)).to.deep.equal(["auth-team-created"]);

    // Leaving asks first; Cancel keeps the membership and gives focus back to the button.
    const leave = button(row, "Leave");
    leave.focus();
    leave.click();
    const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    expect(text(dialog.querySelector("h3")!)).to.equal("Leave Analytical Engines?");
    expect(await axe(dialog)).to.deep.equal([]);
    button(dialog, "Cancel").click();
    await until(() => document.activeElement === leave);
    expect(await page.app.listTeams()).to.have.length(1);

    leave.click();
    button(await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]")), "Leave team").click();
    await until(() => !page.host.querySelector("auth-team-list-settings li"));
    expect(events.map((e) => e.type)).to.deep.equal(["auth-team-created", "auth-team-left"]);
    await until(() => document.activeElement === page.q("input[name=team-name]"));
    expect(await page.app.listTeams()).to.deep.equal([]);
  });
});

describe("<auth-team-list-settings> and the last admin", () => {
  afterEach(unmountAll);

  it("tells the team's only admin why they cannot leave while another member remains, instead of asking to confirm", async () => {
    const project = await createProject({ email: true, configOverride: { "teams.allowClientTeamCreation": true } });
    const page = await signedIn(project, "<auth-team-list-settings></auth-team-list-settings>");
    const team = await page.app.createTeam({ displayName: "Difference Engines" });
    const memberEmail = uniqueEmail("member");
    await createUser(project, { email: memberEmail, password: PASSWORD, primaryEmailVerified: true });
    const member = await otherBrowser(project, memberEmail);
    await page.app.inviteToTeam(team.id, { email: memberEmail });
    const link = (await waitForMail(memberEmail)).links.find((l) => l.includes("code="))!;
    await member.acceptTeamInvitation(new URL(link).searchParams.get("code")!);

    const row = await until(() => page.host.querySelector("auth-team-list-settings li"));
    button(row, "Leave").click();
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal([
      "You are this team's only admin, so you cannot leave it while other members remain. Another member must become an admin first.",
    ]);
    expect(page.host.querySelector("dialog[open]")).to.equal(null);
    expect((await page.app.listTeams()).map((t) => t.id)).to.deep.equal([team.id]);
  });
});

describe("<auth-notification-settings>", () => {
  afterEach(unmountAll);

  it("toggles the categories that can be turned off; the others stay on and disabled", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-notification-settings></auth-notification-settings>");
    const events = record(page, ["auth-notification-preference-changed"]);
    const boxes = await until(() => (page.host.querySelectorAll("input[type=checkbox]").length === 2 ? [...page.host.querySelectorAll<HTMLInputElement>("input[type=checkbox]")] : null));
    expect(await axe(page.host)).to.deep.equal([]);
    const [transactional, marketing] = boxes as [HTMLInputElement, HTMLInputElement];
    expect(text(transactional.labels![0]!)).to.equal("Transactional (always sent)");
    expect([transactional.checked, transactional.disabled]).to.deep.equal([true, true]);
    expect(text(marketing.labels![0]!)).to.equal("Marketing");
    expect([marketing.checked, marketing.disabled]).to.deep.equal([true, false]);

    // With the keyboard: Space toggles the focused box.
    marketing.focus();
    await sendKeys({ press: "Space" });
    await until(() => text(page.q("auth-notification-settings p[role=status]")) === "Your choice has been saved.");
    expect(events.map((e) => e.detail)).to.deep.equal([{ categoryId: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", enabled: false }]);
    expect((await page.app.listNotificationCategories()).map((c) => [c.name, c.enabled])).to.deep.equal([["Transactional", true], ["Marketing", false]]);
    await untilFocused(page.q("input[name='4f6f8873-3d04-46bd-8bef-18338b1a1b4c']"));
  });
});

describe("<auth-api-key-settings>", () => {
  afterEach(unmountAll);

  it("creates a key shown once with a copy button, lists it by its last four, and revokes it", async () => {
    const project = await createProject({ configOverride: { "apiKeys.enabled.user": true } });
    const page = await signedIn(project, "<auth-api-key-settings></auth-api-key-settings>");
    const events = record(page, ["auth-api-key-created", "auth-api-key-revoked"]);
    await until(() => text(page.q("auth-api-key-settings .lk-note")) === "You have no API keys.");
    expect(await axe(page.host)).to.deep.equal([]);
    const expiry = page.q<HTMLSelectElement>("auth-api-key-settings select[name=expiry]");
    expect([...expiry.options].map((o) => o.textContent)).to.deep.equal(["Never", "30 days", "90 days", "365 days"]);

    fill(page.q<HTMLInputElement>("input[name=description]"), "CI deploys");
    expiry.value = "30";
    const create = page.q<HTMLButtonElement>("auth-api-key-settings button[type=submit]");
    create.click();
    const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    const key = dialog.querySelector<HTMLInputElement>("input[readonly]")!.value;
    expect(key.length).to.be.greaterThan(20);
    expect(text(dialog)).to.contain("Copy it now: it will not be shown again.");
    await untilFocused(button(dialog, "Copy"));
    expect(await axe(dialog)).to.deep.equal([]);
    button(dialog, "Copy").click();
    // Headless Chromium may refuse clipboard access; then the key is selected for a manual copy instead.
    await until(() => text(dialog).includes("Copied.") || text(page.q("auth-api-key-settings > div > p[role=status]")).includes("Copying was not allowed"));
    button(dialog, "Done").click();
    await until(() => !page.host.querySelector("dialog"));
    await untilFocused(create);
    expect(events.map((e) => e.type)).to.deep.equal(["auth-api-key-created"]);

    // The list shows the key's last four only, and its expiry about 30 days out.
    const row = await until(() => page.host.querySelector("auth-api-key-settings li"));
    expect(text(row)).to.contain(`CI deploys …${key.slice(-4)} · Expires `);
    expect(row.textContent).to.not.contain(key);
    const [listed] = await page.app.listApiKeys();
    expect(Math.round((listed!.expiresAt!.getTime() - Date.now()) / 86_400_000)).to.equal(30);

    button(row, "Revoke").click();
    button(await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]")), "Revoke key").click();
    await until(() => text(page.q("auth-api-key-settings li")).includes("Revoked"));
    expect(page.q("auth-api-key-settings li").querySelector("button")).to.equal(null);
    expect(events.map((e) => e.type)).to.deep.equal(["auth-api-key-created", "auth-api-key-revoked"]);
    expect((await page.app.listApiKeys())[0]!.manuallyRevokedAt).to.not.equal(null);
  });
});

describe("<auth-delete-account>", () => {
  afterEach(unmountAll);

  it("says so, and offers no button, when the project does not let users delete their account", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-delete-account></auth-delete-account><auth-api-key-settings></auth-api-key-settings>");
    await until(() => page.host.querySelectorAll(".lk-note").length === 2);
    expect(text(page.q("auth-delete-account"))).to.equal("Accounts cannot be deleted here. Ask the app's team to delete yours.");
    expect(text(page.q("auth-api-key-settings"))).to.equal("This project does not offer API keys.");
    expect(page.host.querySelector("button")).to.equal(null);
  });

  it("deletes the account after typing DELETE, fires auth-account-deleted and goes to after-sign-out", async () => {
    const project = await createProject({ configOverride: { "users.allowClientUserDeletion": true } });
    const page = await signedIn(project, "<auth-delete-account></auth-delete-account>");
    const events = record(page, ["auth-account-deleted"]);
    const open = await until(() => button(page.q("auth-delete-account"), "Delete account"));
    expect(await axe(page.host)).to.deep.equal([]);

    // Escape closes the dialog and returns focus to the button.
    open.focus();
    await sendKeys({ press: "Enter" });
    const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    expect(text(dialog.querySelector("label")!)).to.contain(`Type DELETE or your email (${page.email}) to confirm.`);
    expect(await axe(dialog)).to.deep.equal([]);
    await sendKeys({ press: "Escape" });
    await until(() => !dialog.open && document.activeElement === open);

    // A wrong confirmation deletes nothing.
    open.click();
    await until(() => dialog.open);
    await sendKeys({ type: "delete" });
    await sendKeys({ press: "Enter" });
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal(["That does not match. Nothing was deleted."]);
    await untilFocused(dialog.querySelector("input[name=confirmation]")!);
    expect(await axe(dialog)).to.deep.equal([]);

    fill(dialog.querySelector<HTMLInputElement>("input[name=confirmation]")!, "DELETE");
    button(dialog, "Delete my account").click();
    await until(() => events.length === 1);
    expect(events[0]!.detail).to.deep.equal({ userId: page.userId });
    await until(() => page.navigations.length > 0);
    expect(page.navigations).to.deep.equal(["/"]);
    expect(await page.app.getUser()).to.equal(null);
    // The account is gone: its password signs nobody in.
    let failure: unknown;
    await otherBrowser(project, page.email).catch((error: unknown) => (failure = error));
    expect((failure as { code?: string }).code).to.equal("EMAIL_PASSWORD_MISMATCH");
  });

  it("accepts the account's email as the confirmation", async () => {
    const project = await createProject({ configOverride: { "users.allowClientUserDeletion": true } });
    const page = await signedIn(project, "<auth-delete-account></auth-delete-account>");
    const events = record(page, ["auth-account-deleted"]);
    button(await until(() => page.q("auth-delete-account .lk-danger-zone")), "Delete account").click();
    const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    fill(dialog.querySelector<HTMLInputElement>("input[name=confirmation]")!, page.email.toUpperCase());
    button(dialog, "Delete my account").click();
    await until(() => events.length === 1);
  });
});

describe("<auth-connected-accounts-settings>", () => {
  afterEach(unmountAll);

  /** What the customer's backend does to link provider accounts (`POST /oauth-providers`, secret key). */
  async function link(project: BrowserTestProject, userId: string, providerConfigId: string, email: string, allowSignIn: boolean): Promise<void> {
    const response = await fetch(`${project.baseUrl}/api/v1/oauth-providers`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": project.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": project.secretServerKey },
      body: JSON.stringify({ user_id: userId, provider_config_id: providerConfigId, account_id: `${providerConfigId}-${email}`, email, allow_sign_in: allowSignIn, allow_connected_accounts: true }),
    });
    expect(response.status).to.equal(201);
  }

  /** A user with a password, a GitHub account that signs in and a GitLab account that does not. */
  async function userWithGitHubAndGitLab(): Promise<{ project: BrowserTestProject; email: string }> {
    const project = await createProject({
      configOverride: {
        "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
        "auth.oauth.providers.gitlab": { type: "gitlab", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
      },
    });
    const email = uniqueEmail();
    const { userId } = await createUser(project, { email, password: PASSWORD });
    await link(project, userId, "github", "octo@example.com", true);
    await link(project, userId, "gitlab", "lab@example.com", false);
    return { project, email };
  }

  it("lists the linked accounts, turns sign-in on for one and disconnects another after confirmation", async () => {
    const { project, email } = await userWithGitHubAndGitLab();
    const page = await mount(project, "<auth-connected-accounts-settings></auth-connected-accounts-settings>");
    const events = record(page, ["auth-oauth-unlinked"]);
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const rows = await until(() => (page.host.querySelectorAll("li").length === 2 ? [...page.host.querySelectorAll("li")] : null));
    expect(await axe(page.host)).to.deep.equal([]);
    expect(rows.map((row) => (row as HTMLElement).innerText.replace(/\s+/g, " ").trim())).to.deep.equal([
      "GitHub octo@example.com Use to sign in Disconnect",
      "GitLab lab@example.com Use to sign in Disconnect",
    ]);
    const checkboxes = rows.map((row) => row.querySelector<HTMLInputElement>("input[type=checkbox]")!);
    expect(checkboxes.map((box) => box.checked)).to.deep.equal([true, false]);
    // Each provider of the project can be connected (again).
    expect(button(page.host, "Connect GitHub")).to.not.equal(null);

    checkboxes[1]!.click();
    await until(() => (text(page.host).includes("You can now sign in with GitLab.") ? true : null));
    const links = await page.app.listOAuthProviders();
    expect(links.map((l) => [l.providerId, l.allowSignIn])).to.deep.equal([["github", true], ["gitlab", true]]);

    button(rows[0]!, "Disconnect").click();
    const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    expect(text(dialog.querySelector("h3")!)).to.equal("Disconnect GitHub?");
    button(dialog, "Disconnect").click();
    await until(() => (page.host.querySelectorAll("li").length === 1 ? true : null));
    expect(text(page.host)).to.include("GitHub has been disconnected.");
    expect(events.map((event) => event.detail.providerId)).to.deep.equal(["github"]);
    expect((await page.app.listOAuthProviders()).map((l) => l.providerId)).to.deep.equal(["gitlab"]);
  });

  it("disconnects an account confirmed while the list is still reloading after the last change", async () => {
    // Seen once in CI: a disconnect confirmed before the reload that follows turning sign-in on had answered was
    // dropped, and the list never changed. The reload is held here until the disconnect has been asked for.
    const { project, email } = await userWithGitHubAndGitLab();
    const page = await mount(project, "<auth-connected-accounts-settings></auth-connected-accounts-settings>");
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const rows = await until(() => (page.host.querySelectorAll("li").length === 2 ? [...page.host.querySelectorAll("li")] : null));

    const realFetch = window.fetch;
    let releaseLists!: () => void;
    const listsHeld = new Promise<void>((resolve) => (releaseLists = resolve));
    let heldLists = 0;
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      if (method === "GET" && url.includes("/oauth-providers?")) {
        heldLists++;
        await listsHeld;
      }
      return realFetch(input, init);
    };
    try {
      rows[1]!.querySelector<HTMLInputElement>("input[type=checkbox]")!.click();
      await until(() => (text(page.host).includes("You can now sign in with GitLab.") && heldLists > 0 ? true : null));
      button(rows[0]!, "Disconnect").click();
      const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
      button(dialog, "Disconnect").click();
      releaseLists();
      await until(() => (page.host.querySelectorAll("li").length === 1 ? true : null));
    } finally {
      window.fetch = realFetch;
      releaseLists();
    }
    expect(text(page.host)).to.include("GitHub has been disconnected.");
    expect((await page.app.listOAuthProviders()).map((l) => [l.providerId, l.allowSignIn])).to.deep.equal([["gitlab", true]]);
  });

  it("will not disconnect the only way to sign in, and says why", async () => {
    const project = await createProject({ configOverride: { "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } } });
    const { userId } = await createUser(project, { email: uniqueEmail() });
    await link(project, userId, "github", "only@example.com", true);
    const page = await mount(project, "<auth-connected-accounts-settings></auth-connected-accounts-settings>");
    // Signed in through a session the backend made (the user has no password).
    const session = await fetch(`${project.baseUrl}/api/v1/auth/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": project.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": project.secretServerKey },
      body: JSON.stringify({ user_id: userId }),
    });
    const tokens = (await session.json()) as { access_token: string; refresh_token: string };
    page.app.session.signIn({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    // Held back, with the reason next to it (account-ways-in.browser.test.ts goes further).
    const row = await until(() => page.host.querySelector("li")?.querySelector("[part=reason]") && page.host.querySelector("li"));
    expect(button(row, "Disconnect").disabled).to.equal(true);
    expect(text(row.querySelector("[part=reason]")!)).to.equal("GitHub is your only way to sign in. To disconnect it or stop signing in with it, first add another way to sign in.");
    button(row, "Disconnect").click();
    expect(page.host.querySelector("dialog[open]")).to.equal(null);
    expect(await page.app.listOAuthProviders()).to.have.length(1);
  });
});
