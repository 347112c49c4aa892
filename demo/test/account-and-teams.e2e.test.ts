import type { BrowserContext, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { emailConfig } from "../../packages/elements/test/support/browser-test-services.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../../packages/server/src/services/projects.js";
import { createTestProject, type TestProject } from "../../packages/server/test/support/test-server.js";
import { at, errorsOf, linkTo, mailTo, newEmail, openDemo, server, smtp, useDemoForFile } from "./support/demo-e2e.js";

/**
 * Issue 7's journey on the script-tag demo, as people use it in Chromium against the real server: one
 * person manages their account (name, a second email verified through its mail and made primary, a revoked
 * session, a password change that signs the other browser out, deleting the account); two people share a
 * team (create it from the team switcher, invite by email, accept after signing in, switch teams, remove
 * the member).
 */
useDemoForFile();

const PASSWORD = "correct horse battery";

/** A project that, beyond the demo's defaults, lets users create teams and delete their own account. */
function project(): Promise<TestProject> {
  return createTestProject(server, "Account and teams e2e", {
    configOverride: {
      ...NEW_PROJECT_CONFIG_OVERRIDE,
      ...emailConfig(smtp),
      "teams.allowClientTeamCreation": true,
      "users.allowClientUserDeletion": true,
    },
  });
}

/** What the customer's backend (secret server key) would call; fails loudly on an unexpected answer. */
async function serverApi(project: TestProject, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function createPerson(project: TestProject, email: string, displayName: string): Promise<string> {
  const created = await serverApi(project, "POST", "/users", {
    primary_email: email,
    primary_email_verified: true,
    primary_email_auth_enabled: true,
    password: PASSWORD,
    display_name: displayName,
  });
  if (created.status !== 201) throw new Error(`POST /users answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

/** A browser tab signed in through the demo's sign-in page, back on the demo's home page. */
async function signIn(project: TestProject, email: string, path = "/demo/handler/sign-in"): Promise<Page> {
  const page = await openDemo(project, path);
  await fillSignIn(page, email);
  await page.waitForURL(at("/demo/"));
  await page.locator("#signed-in").waitFor();
  return page;
}

async function fillSignIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Whether the tab's session still works once its short-lived access token is gone: drops the
 * `stack-access` cookie (as its expiry would) and reloads, so the page has to refresh with its session.
 */
async function signedInAfterAccessTokenExpiry(page: Page): Promise<boolean> {
  const context: BrowserContext = page.context();
  const kept = (await context.cookies()).filter((cookie) => cookie.name !== "stack-access");
  await context.clearCookies();
  await context.addCookies(kept);
  await page.reload();
  // The page shows "Loading…" until it knows; then exactly one of the two panels.
  await page.locator("#signed-in:visible, #signed-out:visible").first().waitFor();
  return page.locator("#signed-in").isVisible();
}

/** The list item of the account's email settings that shows `address`. */
function emailRow(page: Page, address: string): Locator {
  return page.locator("auth-email-settings li").filter({ hasText: address });
}

function teamSwitcherButton(page: Page): Locator {
  return page.locator("auth-team-switcher button[aria-haspopup=listbox]");
}

describe("demo: account settings", () => {
  it("changes the name, adds, verifies and promotes a second email, revokes a session, changes the password, deletes the account", async () => {
    const demo = await project();
    const email = newEmail("ada");
    const secondEmail = newEmail("ada-work");
    const userId = await createPerson(demo, email, "Ada");
    const page = await signIn(demo, email);
    // Two other browsers signed in to the same account: a laptop and a phone.
    const laptop = await signIn(demo, email);
    const phone = await signIn(demo, email);

    await page.getByRole("link", { name: "Account settings" }).click();
    await page.waitForURL(at("/demo/handler/account-settings"));

    // Profile: a new display name.
    const profile = page.locator("auth-profile-settings");
    await profile.getByLabel("Display name").fill("Ada Lovelace");
    await profile.getByRole("button", { name: "Save" }).click();
    await profile.getByText("Your name has been saved.").waitFor();

    // Emails: add a second address, verify it from its mail, make it primary.
    const emails = page.locator("auth-email-settings");
    await emails.getByLabel("Add an email address").fill(secondEmail);
    await emails.getByRole("button", { name: "Add email" }).click();
    await emailRow(page, secondEmail).getByText("Not verified").waitFor();
    await emailRow(page, secondEmail).getByRole("button", { name: "Send verification email" }).click();
    const mail = await mailTo(secondEmail);
    await page.goto(linkTo(mail, "/demo/handler/email-verification"));
    await page.getByText("Your email has been verified.").waitFor();
    await page.goto(`${server.url}/demo/handler/account-settings`);
    await emailRow(page, secondEmail).getByText("Verified", { exact: true }).waitFor();
    await emailRow(page, secondEmail).getByRole("button", { name: "Make primary" }).click();
    await emailRow(page, secondEmail).getByText("Primary", { exact: true }).waitFor();
    expect(await emailRow(page, email).getByText("Primary", { exact: true }).count()).toBe(0);

    // Sessions: this browser marked, two others; revoke one of them. (They are under the Security tab, which a deep link opens.)
    await page.goto(`${server.url}/demo/handler/account-settings#security`);
    const sessions = page.locator("auth-session-settings");
    await expect.poll(() => sessions.locator("li").count()).toBe(3);
    expect(await sessions.locator("li").filter({ hasText: "Current session" }).count()).toBe(1);
    await sessions.getByRole("button", { name: "Revoke" }).first().click();
    // It asks first (issue 31: every destructive action is confirmed).
    await sessions.getByRole("dialog", { name: "Revoke this session?" }).getByRole("button", { name: "Revoke" }).click();
    await sessions.getByText("The session has been revoked. That device is signed out.").waitFor();
    await expect.poll(() => sessions.locator("li").count()).toBe(2);

    // Password: changing it ends every other session.
    const password = page.locator("auth-password-settings");
    await password.getByLabel("Current password").fill(PASSWORD);
    await password.getByLabel("New password", { exact: true }).fill("a brand new password");
    await password.getByLabel("Repeat new password").fill("a brand new password");
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByText("Your password has been changed.").waitFor();
    // The hash keeps the Security tab open across the reload.
    await page.reload();
    await expect.poll(() => page.locator("auth-session-settings li").count()).toBe(1);
    expect(await signedInAfterAccessTokenExpiry(laptop)).toBe(false);
    expect(await signedInAfterAccessTokenExpiry(phone)).toBe(false);

    // The home page greets the new name and shows the new primary email; this browser is still signed in.
    await page.goto(`${server.url}/demo/`);
    await page.getByRole("heading", { name: "Hello, Ada Lovelace" }).waitFor();
    expect(await page.locator("#user-email").textContent()).toBe(secondEmail);
    expect(await signedInAfterAccessTokenExpiry(page)).toBe(true);

    // Danger zone: deleting asks for confirmation, then the person is signed out and the account is gone.
    await page.goto(`${server.url}/demo/handler/account-settings#danger-zone`);
    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByRole("textbox").fill("not the word");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.getByText("That does not match. Nothing was deleted.").waitFor();
    await dialog.getByRole("textbox").fill(secondEmail);
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL(at("/demo/"));
    await page.getByRole("heading", { name: "You are signed out" }).waitFor();
    const gone = await serverApi(demo, "GET", `/users/${userId}`);
    expect([gone.status, gone.body.code]).toEqual([404, "USER_NOT_FOUND"]);
    for (const tab of [page, laptop, phone]) expect(errorsOf(tab)).toEqual([]);
  });
});

describe("demo: teams", () => {
  it("creates teams, invites a second person by email who accepts after signing in, switches teams and removes the member", async () => {
    const demo = await project();
    const ownerEmail = newEmail("grace");
    const memberEmail = newEmail("linus");
    await createPerson(demo, ownerEmail, "Grace");
    const memberId = await createPerson(demo, memberEmail, "Linus");
    const owner = await signIn(demo, ownerEmail);

    // Two teams made from the team switcher's "Create team…" entry; each new team becomes the selected one.
    for (const name of ["Rocket Club", "Quiet Corner"]) {
      await teamSwitcherButton(owner).click();
      await owner.getByRole("option", { name: "Create team…" }).click();
      const dialog = owner.getByRole("dialog", { name: "Create a team" });
      await dialog.getByLabel("Team name").fill(name);
      await dialog.getByRole("button", { name: "Create team" }).click();
      await expect.poll(() => teamSwitcherButton(owner).textContent()).toContain(name);
    }

    // Switch back to Rocket Club; the team settings on the page follow the selected team.
    await teamSwitcherButton(owner).click();
    await owner.getByRole("option", { name: "Rocket Club" }).click();
    await expect.poll(() => teamSwitcherButton(owner).textContent()).toContain("Rocket Club");
    const settings = owner.locator("auth-team-settings");
    await expect.poll(() => settings.getByLabel("Team name").inputValue()).toBe("Rocket Club");

    // Invite the second person; the invitation is pending until accepted.
    await settings.getByLabel("Email").fill(memberEmail);
    await settings.getByRole("button", { name: "Send invitation" }).click();
    await settings.getByRole("button", { name: `Revoke the invitation of ${memberEmail}` }).waitFor();

    // The invitee opens the mailed link signed out, signs in first and comes back to accept.
    const mail = await mailTo(memberEmail);
    const member = await openDemo(demo, linkTo(mail, "/demo/handler/team-invitation"));
    await member.getByRole("link", { name: "Sign in to continue" }).click();
    await member.waitForURL(at("/demo/handler/sign-in"));
    await fillSignIn(member, memberEmail);
    await member.waitForURL(at("/demo/handler/team-invitation"));
    await member.getByText("You have been invited to join Rocket Club.").waitFor();
    await member.getByRole("button", { name: "Accept" }).click();
    await member.getByText("You have joined Rocket Club.").waitFor();
    const memberTeams = await serverApi(demo, "GET", `/teams?user_id=${memberId}`);
    expect(memberTeams.body.items.map((team: { display_name: string }) => team.display_name)).toEqual(["Rocket Club"]);

    // The owner sees the new member (and no pending invitation), and removes them after confirming.
    await owner.reload();
    const members = owner.locator("auth-team-settings").locator("li").filter({ hasText: "Linus" });
    await members.waitFor();
    expect(await owner.getByRole("button", { name: `Revoke the invitation of ${memberEmail}` }).count()).toBe(0);
    await owner.getByRole("button", { name: "Remove Linus" }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Remove member" }).click();
    await expect.poll(() => members.count()).toBe(0);
    const afterRemoval = await serverApi(demo, "GET", `/teams?user_id=${memberId}`);
    expect(afterRemoval.body.items).toEqual([]);

    // The removed member's switcher no longer offers the team.
    await member.goto(`${server.url}/demo/`);
    await teamSwitcherButton(member).click();
    await member.getByRole("listbox").waitFor();
    expect(await member.getByRole("option", { name: /Rocket Club/ }).count()).toBe(0);
    for (const tab of [owner, member]) expect(errorsOf(tab)).toEqual([]);
  });
});

describe("social sign-in through the built-in development OpenID provider", () => {
  it("signs up with GitHub from the sign-in page, then links GitLab in account settings", async () => {
    const oauthProject = await createTestProject(server, "OAuth e2e", {
      configOverride: {
        ...NEW_PROJECT_CONFIG_OVERRIDE,
        ...emailConfig(smtp),
        "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
        "auth.oauth.providers.gitlab": { type: "gitlab", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
      },
    });
    const email = newEmail("octo");
    // At the server's public URL, as an app must call it for OAuth: the authorize answer's cookie (which binds the
    // flow to this browser) is set on that host, where the provider sends the browser back.
    const page = await openDemo(oauthProject, `${server.env.publicUrl}/demo/handler/sign-in`);
    const github = page.getByRole("button", { name: "Continue with GitHub" });
    await github.waitFor();
    // The provider's mark, served by the Latchkey server, loaded.
    expect(await github.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await github.click();

    // Latchkey's development provider asks which email to continue as.
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(at("/demo/"));
    await page.locator("#signed-in").waitFor();

    await page.goto(new URL("/demo/handler/account-settings#connected-accounts", server.env.publicUrl).toString());
    const connected = page.locator("auth-connected-accounts-settings");
    await connected.getByText(email).waitFor();
    await connected.getByRole("button", { name: "Connect GitLab" }).click();
    const second = newEmail("lab");
    await page.getByLabel("Email address").fill(second);
    await page.getByRole("button", { name: "Continue" }).click();
    // Back on the settings page the link started from, with both accounts listed.
    await page.waitForURL(at("/demo/handler/account-settings"));
    await connected.getByText(second).waitFor();
    await expect.poll(() => connected.locator("li").count()).toBe(2);

    const users = await serverApi(oauthProject, "GET", "/users");
    expect(users.body.items).toHaveLength(1);
    expect(users.body.items[0].oauth_providers.map((p: { id: string; email: string }) => [p.id, p.email]).sort()).toEqual([["github", email], ["gitlab", second]]);
  });
});
