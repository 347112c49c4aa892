import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { USERS_PAGE_SIZE } from "../src/pages/project/users/page-size.js";
import { expectAccessibleAndNarrow, expectNoAxeViolations, horizontalOverflow, keyAdmin, openSection, ownerWithProject, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The Users and User pages (issue 20) as an owner uses them, against the real server: creating, searching and
 * paging users, and on a user's page editing their name and metadata, revoking a session, impersonating and
 * deleting. What the pages claim is checked through the API with keys made for the test.
 */
const harness = useDashboardHarness();

/** The id of the user whose session a refresh token belongs to, as the API tells it (null if the token does not work). */
async function userOfRefreshToken(projectId: string, adminKey: string, refreshToken: string): Promise<string | null> {
  const headers = { "x-stack-project-id": projectId, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": adminKey };
  const refreshed = await fetch(`${harness.server.url}/api/v1/auth/sessions/current/refresh`, { method: "POST", headers: { ...headers, "x-stack-refresh-token": refreshToken } });
  if (!refreshed.ok) return null;
  const { access_token } = (await refreshed.json()) as { access_token: string };
  const me = await fetch(`${harness.server.url}/api/v1/users/me`, { headers: { ...headers, "x-stack-access-token": access_token } });
  return ((await me.json()) as { id: string }).id;
}

/** The project's API as its admin, for setup the admin app has no call for and for checks (e.g. linking a provider account). */
async function adminRequest(projectId: string, adminKey: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${harness.server.url}/api/v1${path}`, {
    method,
    headers: { "x-stack-project-id": projectId, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": adminKey, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Turns on GitHub and Google (shared keys) and links an account of each to the user, as an OAuth sign-in would. */
async function linkProviderAccounts(projectId: string, admin: Awaited<ReturnType<typeof keyAdmin>>, userId: string) {
  await admin.updateConfigOverride({
    "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
    "auth.oauth.providers.google": { type: "google", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
  });
  for (const [provider, accountId] of [["github", "gh-1815"], ["google", "g-1815"]]) {
    const linked = await adminRequest(projectId, admin.adminKey, "POST", "/oauth-providers", {
      user_id: userId,
      provider_config_id: provider,
      account_id: accountId,
      email: `${accountId}@example.com`,
      allow_sign_in: true,
      allow_connected_accounts: false,
    });
    expect(linked.status).toBe(201);
  }
}

/** What the server says of a presented user API key: its known error (e.g. API_KEY_REVOKED), or "valid". */
async function userApiKeyVerdict(projectId: string, adminKey: string, apiKey: string): Promise<string> {
  const response = await adminRequest(projectId, adminKey, "POST", "/user-api-keys/check", { api_key: apiKey });
  return response.ok ? "valid" : (response.headers.get("x-stack-known-error") ?? String(response.status));
}

const usersTable = (page: Page) => page.getByRole("table", { name: /users/i });
/** The user names in the table's rows, as their links show them. */
const listedNames = async (page: Page) => usersTable(page).locator("tbody tr").getByRole("link").allTextContents();

/** Waits until the page's request to the server comes back with the expected value (no fixed sleeps). */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  expect(last).toEqual(expected);
}

/** Opens a user's page from the Users list by their name. */
async function openUser(page: Page, name: string) {
  await openSection(page, "Users");
  await usersTable(page).getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { name, level: 2 }).waitFor();
}

describe("the Users page", () => {
  it("creates a user with the form, pages through more users than fit a page, and finds one by search", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "users e2e");
    // One page full of earlier sign-ups; the form's user is the one more that makes a second page.
    const earlier: string[] = [];
    for (let i = 0; i < USERS_PAGE_SIZE; i++) {
      const name = `Earlier user ${i + 1}`;
      await admin.createUser({ displayName: name, primaryEmail: `earlier-${i + 1}@example.com` });
      earlier.push(name);
    }
    await openSection(page, "Users");
    await usersTable(page).waitFor();

    // The form says what is wrong before anything is sent.
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByText("Enter the user's email address.").waitFor();
    await page.getByLabel("Email", { exact: true }).fill("not an email");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByText("Enter a valid email address").waitFor();
    expect((await admin.listUsers({ limit: 100 })).items).toHaveLength(USERS_PAGE_SIZE);

    await page.getByLabel("Email", { exact: true }).fill("zephyrine@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByLabel("Display name").fill("Zephyrine Quill");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("status").getByRole("link", { name: "Zephyrine Quill" }).waitFor();
    // Newest first: the new user tops the first page, which is full.
    await usersTable(page).getByRole("link", { name: "Zephyrine Quill" }).waitFor();
    const created = (await admin.listUsers({ query: "zephyrine" })).items;
    expect(created.map((u) => [u.displayName, u.primaryEmail, u.hasPassword])).toEqual([["Zephyrine Quill", "zephyrine@example.com", true]]);

    // The server's refusal is shown in its words.
    await page.getByLabel("Email", { exact: true }).fill("zephyrine@example.com");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("alert").getByText('Could not create the user: A user with email "zephyrine@example.com" already exists.').waitFor();
    await page.getByLabel("Email", { exact: true }).fill("");

    const firstPage = await listedNames(page);
    expect(firstPage).toHaveLength(USERS_PAGE_SIZE);
    expect(firstPage[0]).toBe("Zephyrine Quill");
    expect(await page.getByRole("button", { name: "Previous page" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Page 2", { exact: true }).waitFor();
    await expect.poll(() => listedNames(page)).toHaveLength(1);
    const secondPage = await listedNames(page);
    expect(new Set([...firstPage, ...secondPage])).toEqual(new Set([...earlier, "Zephyrine Quill"]));
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Previous page" }).click();
    await page.getByText("Page 1", { exact: true }).waitFor();
    await expect.poll(() => listedNames(page)).toEqual(firstPage);

    // The server searches names and emails; a search starts at its own first page.
    await page.getByLabel("Search users").fill("earlier-7@");
    await expect.poll(() => listedNames(page)).toEqual(["Earlier user 7"]);
    await page.getByLabel("Search users").fill("nobody-like-this");
    await page.getByText("No user matches “nobody-like-this”.").waitFor();
    await page.getByLabel("Search users").fill("");
    await expect.poll(() => listedNames(page)).toEqual(firstPage);

    // The row leads to the user's page.
    await usersTable(page).getByRole("link", { name: "Earlier user 3" }).click();
    await page.getByRole("heading", { name: "Earlier user 3", level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`/dashboard/projects/${projectId}/users/[0-9a-f-]{36}$`));
  });
});

describe("a user's page", () => {
  it("edits the name and metadata, marks the email verified, revokes a session, impersonates and deletes the user", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "users e2e");
    const user = await admin.createUser({ displayName: "Ada Lovelace", primaryEmail: "ada@example.com", primaryEmailAuthEnabled: true });
    await admin.createSession({ userId: user.id });
    await admin.createPermissionDefinition("project", { id: "read_reports", description: "Read the reports" });
    await openUser(page, "Ada Lovelace");
    await page.getByText("ada@example.com").first().waitFor();

    // The name.
    await page.getByLabel("Display name").fill("Ada King");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Name saved.").waitFor();
    await page.getByRole("heading", { name: "Ada King", level: 2 }).waitFor();
    expect((await admin.getUserById(user.id))?.displayName).toBe("Ada King");

    // Metadata: JSON that does not parse is refused in the page and nothing is sent; valid JSON is saved.
    await page.getByLabel("Client metadata", { exact: true }).fill('{"theme": ');
    await page.getByRole("button", { name: "Save client metadata" }).click();
    await page.getByRole("alert").getByText("This is not valid JSON").waitFor();
    expect((await admin.getUserById(user.id))?.clientMetadata).toEqual(null);
    await page.getByLabel("Client metadata", { exact: true }).fill('{"theme": "dark"}');
    await page.getByRole("button", { name: "Save client metadata" }).click();
    await page.getByText("Client metadata saved.").waitFor();
    await page.getByLabel("Server metadata").fill('{"plan": "pro", "seats": 3}');
    await page.getByRole("button", { name: "Save server metadata" }).click();
    await page.getByText("Server metadata saved.").waitFor();
    const saved = await admin.getUserById(user.id);
    expect([saved?.clientMetadata, saved?.serverMetadata]).toEqual([{ theme: "dark" }, { plan: "pro", seats: 3 }]);
    // A reload shows what the server has.
    await page.reload();
    await expect.poll(() => page.getByLabel("Server metadata").inputValue()).toBe(JSON.stringify({ plan: "pro", seats: 3 }, null, 2));

    // The email, marked verified by the admin.
    await page.getByRole("button", { name: "Mark verified: ada@example.com" }).click();
    await page.getByRole("button", { name: "Mark unverified: ada@example.com" }).waitFor();
    expect((await admin.getUserById(user.id))?.primaryEmailVerified).toBe(true);

    // The session made through the API is listed; revoking it (after confirming) ends it on the server.
    const sessions = page.getByRole("table", { name: "The user's active sessions" });
    await expect.poll(() => sessions.locator("tbody tr").count()).toBe(1);
    await sessions.getByRole("button", { name: "Revoke" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this session?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await admin.listUserSessions(user.id)).toHaveLength(1);
    await sessions.getByRole("button", { name: "Revoke" }).click();
    await dialog.getByRole("button", { name: "Revoke session" }).click();
    await page.getByText("This user has no active sessions.").waitFor();
    expect(await admin.listUserSessions(user.id)).toEqual([]);

    // Impersonation makes an impersonation session, listed here, and hands over the code for the app's console.
    await page.getByRole("button", { name: "Impersonate this user" }).click();
    await page.getByText("Impersonation session created.").waitFor();
    const snippet = await page.getByLabel("Code to run in your app's console").inputValue();
    expect(snippet).toMatch(new RegExp(`^document\\.cookie = "stack-refresh-${projectId}=[^;"]+; path=/; max-age=3600; samesite=lax"; location\\.reload\\(\\);$`));
    // The cookie's refresh token is a working session of this user (what the app signs in with after the reload).
    const refreshToken = new RegExp(`stack-refresh-${projectId}=([^;"]+)`).exec(snippet)![1]!;
    expect(await userOfRefreshToken(projectId, admin.adminKey, refreshToken)).toBe(user.id);
    await sessions.getByText("Impersonation").waitFor();
    expect((await admin.listUserSessions(user.id)).map((s) => s.isImpersonation)).toEqual([true]);

    // A project permission, granted from the project's definitions and revoked after confirming.
    await page.getByLabel("Permission to grant").selectOption("read_reports");
    await page.getByRole("button", { name: "Grant permission" }).click();
    await page.getByRole("button", { name: "Revoke read_reports" }).waitFor();
    expect(await admin.listUserProjectPermissions(user.id)).toEqual(["read_reports"]);
    await page.getByRole("button", { name: "Revoke read_reports" }).click();
    await page.getByRole("dialog", { name: "Revoke read_reports?" }).getByRole("button", { name: "Revoke permission" }).click();
    await page.getByText("No project permissions are granted to this user.").waitFor();
    expect(await admin.listUserProjectPermissions(user.id)).toEqual([]);

    // Deleting asks for the email to be typed, then goes back to the list, without the user.
    await page.getByRole("button", { name: "Delete user" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Ada King?" });
    expect(await confirm.getByRole("button", { name: "Delete user" }).isDisabled()).toBe(true);
    await confirm.getByLabel("Type ada@example.com to confirm").fill("ada@example.com");
    await confirm.getByRole("button", { name: "Delete user" }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/projects/${projectId}/users`);
    await page.getByText("No users yet.").waitFor();
    await eventually(async () => (await admin.getUserById(user.id)) === null, true);
  });

  it("unlinks a provider account, and creates an API key shown once and revokes it", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "users e2e");
    await admin.updateAdminProject({ config: { allow_user_api_keys: true } });
    const user = await admin.createUser({ displayName: "Ada Lovelace", primaryEmail: "ada@example.com", primaryEmailAuthEnabled: true });
    await linkProviderAccounts(projectId, admin, user.id);
    await openUser(page, "Ada Lovelace");

    // Linked accounts: unlinking asks first; cancelling keeps the link, confirming removes it on the server.
    const links = page.getByRole("table", { name: "Provider accounts linked to the user" });
    await links.getByText("gh-1815", { exact: true }).waitFor();
    await links.getByText("g-1815", { exact: true }).waitFor();
    await links.getByRole("button", { name: "Unlink the github account gh-1815" }).click();
    const unlinkDialog = page.getByRole("dialog", { name: "Unlink this github account?" });
    await unlinkDialog.getByRole("button", { name: "Cancel" }).click();
    await unlinkDialog.waitFor({ state: "hidden" });
    expect((await admin.listUserOAuthLinks(user.id)).map((l) => l.accountId).sort()).toEqual(["g-1815", "gh-1815"]);
    await links.getByRole("button", { name: "Unlink the github account gh-1815" }).click();
    await unlinkDialog.getByRole("button", { name: "Unlink account" }).click();
    await unlinkDialog.waitFor({ state: "hidden" });
    await expect.poll(() => links.locator("tbody tr").count()).toBe(1);
    await links.getByText("g-1815", { exact: true }).waitFor();
    expect((await admin.listUserOAuthLinks(user.id)).map((l) => [l.providerId, l.accountId])).toEqual([["google", "g-1815"]]);

    // API keys: the form says what is missing before anything is sent.
    const keysCard = page.getByRole("region", { name: "API keys", exact: true });
    await keysCard.getByText("This user has no API keys.").waitFor();
    await keysCard.getByRole("button", { name: "Create API key" }).click();
    await keysCard.getByText("Describe what the key is for").waitFor();
    expect(await admin.listUserApiKeys(user.id)).toEqual([]);

    // A new key's whole value is shown once, and it is a working key of this user.
    await keysCard.getByLabel("Key description").fill("Deploy script");
    await keysCard.getByLabel("Key expires after").selectOption({ label: "30 days" });
    await keysCard.getByRole("button", { name: "Create API key" }).click();
    const once = keysCard.getByRole("region", { name: "New key: Deploy script" });
    await once.getByText("you will not see it again").waitFor();
    const value = (await once.getByTestId("new-user-api-key").textContent())!;
    expect(value.length).toBeGreaterThan(20);
    expect(await userApiKeyVerdict(projectId, admin.adminKey, value)).toBe("valid");
    const [created] = await admin.listUserApiKeys(user.id);
    expect(created).toMatchObject({ description: "Deploy script", manuallyRevokedAt: null });
    const days = (created!.expiresAt!.getTime() - created!.createdAt.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    await expectAccessibleAndNarrow(page);

    // Once dismissed, the page shows only the key's last characters, and not even a reload brings the value back.
    await once.getByRole("button", { name: "I have copied the key" }).click();
    const keyRow = keysCard.getByRole("row").filter({ hasText: "Deploy script" });
    await keyRow.getByText(`…${value.slice(-4)}`).waitFor();
    await keyRow.getByText("Active").waitFor();
    await page.reload();
    await keyRow.getByText("Active").waitFor();
    expect(await page.content()).not.toContain(value);

    // Revoking asks first; then the server refuses the key, which stays listed as revoked.
    await keyRow.getByRole("button", { name: "Revoke the key Deploy script" }).click();
    const revokeDialog = page.getByRole("dialog", { name: "Revoke this API key?" });
    await revokeDialog.getByRole("button", { name: "Revoke key" }).click();
    await keyRow.getByText("Revoked").waitFor();
    expect(await keyRow.getByRole("button", { name: "Revoke the key Deploy script" }).count()).toBe(0);
    expect(await userApiKeyVerdict(projectId, admin.adminKey, value)).toBe("API_KEY_REVOKED");
    expect((await admin.listUserApiKeys(user.id))[0]?.manuallyRevokedAt).toBeInstanceOf(Date);
  });

  it("says so for a user id the project does not have", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const missing = "00000000-0000-4000-8000-000000000000";
    await page.goto(`${harness.server.url}/dashboard/projects/${projectId}/users/${missing}`);
    await page.getByText("This project has no user with the id").waitFor();
    await page.getByRole("link", { name: "← All users" }).click();
    await page.getByText("No users yet.").waitFor();
  });
});

/** A user with something in every card, so axe and the phone layout see the pages filled. */
async function filledUser(projectId: string) {
  const admin = await keyAdmin(harness.server, projectId, "users e2e");
  const user = await admin.createUser({
    displayName: "Grace Hopper",
    primaryEmail: "grace.brewster.murray.hopper@a-rather-long-domain-name.example.com",
    primaryEmailAuthEnabled: true,
    password: "correct horse battery",
    serverMetadata: { rank: "Rear admiral", ships: ["USS Hopper"] },
  });
  await admin.createSession({ userId: user.id });
  await admin.createSession({ userId: user.id, isImpersonation: true });
  await linkProviderAccounts(projectId, admin, user.id);
  await admin.updateAdminProject({ config: { allow_user_api_keys: true } });
  await admin.createUserApiKey(user.id, { description: "Mark I compiler", expiresAt: null });
  return user;
}

/** Waits until every card of the user's page has loaded. */
async function userPageLoaded(page: Page) {
  await page.getByRole("heading", { name: "Grace Hopper", level: 2 }).waitFor();
  await page.getByRole("table", { name: "The user's active sessions" }).getByText("Impersonation").waitFor();
  await page.getByRole("table", { name: "The user's email addresses" }).waitFor();
  await page.getByText("This user is not in any team.").waitFor();
  await page.getByText("No project permissions are granted to this user.").waitFor();
  await page.getByRole("table", { name: "Provider accounts linked to the user" }).getByText("gh-1815", { exact: true }).waitFor();
  await page.getByRole("table", { name: "The user's API keys" }).getByText("Mark I compiler").waitFor();
}

describe("the Users pages' accessibility and layout", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`passes axe on the list and a user's page in ${colorScheme} mode`, async () => {
      const { page, projectId } = await ownerWithProject(harness, { colorScheme });
      await filledUser(projectId);
      await openSection(page, "Users");
      await usersTable(page).getByRole("link", { name: "Grace Hopper" }).waitFor();
      await expectNoAxeViolations(page);
      await usersTable(page).getByRole("link", { name: "Grace Hopper" }).click();
      await userPageLoaded(page);
      await page.getByRole("button", { name: "Impersonate this user" }).click();
      await page.getByText("Impersonation session created.").waitFor();
      await expectNoAxeViolations(page);
    });
  }

  it("passes axe with no users yet and with a search that matches no one", async () => {
    // The search box names what it searches (aria-controls): the results, there whether they hold a table or not.
    const { page } = await ownerWithProject(harness);
    await openSection(page, "Users");
    await page.getByText("No users yet.").waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel("Search users").fill("nobody-at-all");
    await page.getByText("No user matches “nobody-at-all”.").waitFor();
    await expectNoAxeViolations(page);
  });

  it("fits a 360 px wide screen", async () => {
    const { page, projectId } = await ownerWithProject(harness, { viewport: { width: 360, height: 740 } });
    await filledUser(projectId);
    await openSection(page, "Users");
    await usersTable(page).getByRole("link", { name: "Grace Hopper" }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await usersTable(page).getByRole("link", { name: "Grace Hopper" }).click();
    await userPageLoaded(page);
    await page.getByRole("button", { name: "Impersonate this user" }).click();
    await page.getByText("Impersonation session created.").waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
  });
});
