import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessibleAndNarrow, expectNoAxeViolations, openSection, ownerWithProject, testKeys, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The Authentication, Domains and Keys pages (issue 20) as an owner uses them, each change checked where it
 * matters: through the API with keys of the project, and by reloading the page.
 */
const harness = useDashboardHarness();

/** The project's own API, as an app with a key of `kind` would call it. */
function api(projectId: string, access: "server" | "admin", key: string) {
  const header = access === "server" ? "x-stack-secret-server-key" : "x-stack-super-secret-admin-key";
  return (path: string) =>
    fetch(`${harness.server.url}/api/v1${path}`, { headers: { "x-stack-project-id": projectId, "x-stack-access-type": access, [header]: key } });
}

/** An admin key for the test's own checks, made on the server's side (not through the page under test). */
async function adminApi(projectId: string) {
  const keys = await testKeys(harness.server, projectId, "test checks");
  return api(projectId, "admin", keys.super_secret_admin_key!);
}

type LegacyConfig = {
  sign_up_enabled: boolean;
  passkey_enabled: boolean;
  allow_localhost: boolean;
  oauth_providers: { id: string; type: string; client_id?: string; client_secret?: string }[];
  domains: { domain: string; handler_path: string }[];
};
async function projectConfig(adminGet: (path: string) => Promise<Response>): Promise<LegacyConfig> {
  const response = await adminGet("/internal/projects/current");
  expect(response.status).toBe(200);
  return ((await response.json()) as { config: LegacyConfig }).config;
}

/** The stored override, straight from the database: proves a write-only secret was stored. */
async function storedOverride(projectId: string): Promise<string> {
  const row = await harness.server.db.selectFrom("projects").select("config_override").where("id", "=", projectId).executeTakeFirstOrThrow();
  return typeof row.config_override === "string" ? row.config_override : JSON.stringify(row.config_override);
}

/** Replaces the CodeMirror editor's text as a person would: select all, type. */
async function replaceEditorText(page: Page, text: string) {
  const editor = page.getByRole("textbox", { name: "Override (JSON)" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

describe("the Authentication page", () => {
  it("turns sign-up off and GitHub on with the project's own keys, whose secret never shows again", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const adminGet = await adminApi(projectId);
    await openSection(page, "Authentication");
    await page.waitForURL((url) => url.pathname === `/dashboard/projects/${projectId}/authentication`);

    const signIn = page.getByRole("region", { name: "Sign-up and sign-in" });
    const signUp = signIn.getByRole("checkbox", { name: "New users can sign up" });
    expect(await signUp.isChecked()).toBe(true);
    await signUp.uncheck();
    await signIn.getByRole("button", { name: "Save" }).click();
    await signIn.getByRole("status").getByText("Saved.").waitFor();
    expect((await projectConfig(adminGet)).sign_up_enabled).toBe(false);

    // GitHub with the project's own OAuth app: the form asks for what is missing before sending.
    const providers = page.getByRole("list", { name: "OAuth providers" });
    expect(await providers.getByRole("listitem").count()).toBe(12);
    const github = providers.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "GitHub" }) });
    expect(await github.getByTestId("github-status").textContent()).toBe("Off");
    await github.getByRole("button", { name: "Set up GitHub" }).click();
    await github.getByRole("radio", { name: "On, with your own keys" }).check();
    await github.getByRole("button", { name: "Save GitHub" }).click();
    await github.getByText("Enter the client ID of your OAuth app.").waitFor();
    await github.getByText("Enter the client secret of your OAuth app.").waitFor();

    // The callback URL to register with GitHub: the server's public address (server: oauth/project-providers.ts).
    const callback = `${harness.server.env.publicUrl}/api/v1/auth/oauth/callback/github`;
    expect(await github.getByTestId("github-callback-url").textContent()).toBe(callback);
    await github.getByRole("button", { name: "Copy the GitHub callback URL" }).waitFor();

    await github.getByLabel("Client ID").fill("gh-client-id");
    await github.getByLabel("Client secret").fill("gh-client-secret-7f3a");
    await github.getByRole("button", { name: "Save GitHub" }).click();
    await github.getByRole("status").getByText("Saved.").waitFor();
    await github.getByTestId("github-status").getByText("On, with your own keys").waitFor();
    expect(await github.getByLabel("Client secret").inputValue()).toBe("");

    const config = await projectConfig(adminGet);
    expect(config.oauth_providers).toEqual([expect.objectContaining({ id: "github", type: "standard", client_id: "gh-client-id" })]);
    expect(config.oauth_providers[0]).not.toHaveProperty("client_secret");
    expect(await storedOverride(projectId)).toContain("gh-client-secret-7f3a");

    // After a reload: the saved values, and the secret nowhere on the page.
    await page.reload();
    expect(await page.getByRole("checkbox", { name: "New users can sign up" }).isChecked()).toBe(false);
    const githubAgain = page.getByRole("list", { name: "OAuth providers" }).getByRole("listitem").filter({ has: page.getByRole("heading", { name: "GitHub" }) });
    await githubAgain.getByRole("button", { name: "Set up GitHub" }).click();
    expect(await githubAgain.getByLabel("Client ID").inputValue()).toBe("gh-client-id");
    expect(await githubAgain.getByLabel("Client secret").inputValue()).toBe("");
    await githubAgain.getByText("Leave this empty to keep it").waitFor();
    expect(await page.content()).not.toContain("gh-client-secret-7f3a");

    // Saving with the secret left empty keeps the stored one.
    await githubAgain.getByLabel("Client ID").fill("gh-client-id-2");
    await githubAgain.getByRole("button", { name: "Save GitHub" }).click();
    await githubAgain.getByRole("status").getByText("Saved.").waitFor();
    expect((await projectConfig(adminGet)).oauth_providers).toEqual([expect.objectContaining({ id: "github", client_id: "gh-client-id-2" })]);
    expect(await storedOverride(projectId)).toContain("gh-client-secret-7f3a");

    // Google with the server's shared keys; then GitHub off (its keys stay stored for later).
    const google = page.getByRole("list", { name: "OAuth providers" }).getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Google" }) });
    await google.getByRole("button", { name: "Set up Google" }).click();
    await google.getByRole("radio", { name: "On, with shared keys" }).check();
    expect(await google.getByLabel("Client ID").count()).toBe(0);
    await google.getByRole("button", { name: "Save Google" }).click();
    await google.getByTestId("google-status").getByText("On, with shared keys").waitFor();
    await githubAgain.getByRole("radio", { name: "Off" }).check();
    await githubAgain.getByRole("button", { name: "Save GitHub" }).click();
    await githubAgain.getByTestId("github-status").getByText("Off").waitFor();
    expect((await projectConfig(adminGet)).oauth_providers).toEqual([expect.objectContaining({ id: "google", type: "shared" })]);

    await expectAccessibleAndNarrow(page);
  });
});

describe("the Domains page", () => {
  it("adds a trusted domain after refusing a bad one, edits its handler path, removes it on confirmation, and switches localhost", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const adminGet = await adminApi(projectId);
    // The address the server's fix links name (SPEC §2) opens the page directly.
    await page.goto(`${harness.server.url}/dashboard/projects/${projectId}/domains`);
    const card = page.getByRole("region", { name: "Trusted domains" });
    await card.getByText("No trusted domains yet.").waitFor();

    await card.getByLabel("URL", { exact: true }).fill("app.example.com");
    await card.getByRole("button", { name: "Add domain" }).click();
    await card.getByText("The URL must start with http:// or https://.").waitFor();
    expect(await card.getByLabel("URL", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await card.getByLabel("Handler path").fill("auth");
    await card.getByLabel("URL", { exact: true }).fill("https://app.example.com");
    await card.getByRole("button", { name: "Add domain" }).click();
    await card.getByText("The handler path must start with /, e.g. /handler.").waitFor();
    expect((await projectConfig(adminGet)).domains).toEqual([]);

    await card.getByLabel("Handler path").fill("/auth");
    await card.getByRole("button", { name: "Add domain" }).click();
    const list = card.getByRole("list", { name: "Trusted domains" });
    await list.getByText("https://app.example.com").waitFor();
    await list.getByText("Handler path: /auth").waitFor();
    expect((await projectConfig(adminGet)).domains).toEqual([{ domain: "https://app.example.com", handler_path: "/auth" }]);
    expect(await card.getByLabel("URL", { exact: true }).inputValue()).toBe("");

    // The handler path is edited in place: checked before sending, and the server's refusal shown in its words.
    await list.getByRole("button", { name: "Edit the handler path of https://app.example.com" }).click();
    const edit = list.getByRole("form", { name: "Handler path of https://app.example.com" });
    expect(await edit.getByLabel("New handler path").inputValue()).toBe("/auth");
    await edit.getByLabel("New handler path").fill("auth/v2");
    await edit.getByRole("button", { name: "Save handler path" }).click();
    await edit.getByRole("alert").getByText("The handler path must start with /, e.g. /handler.").waitFor();
    expect(await edit.getByLabel("New handler path").getAttribute("aria-invalid")).toBe("true");
    await edit.getByLabel("New handler path").fill(`/${"a".repeat(300)}`);
    await edit.getByRole("button", { name: "Save handler path" }).click();
    await edit.getByRole("alert").getByText(/^Could not save the handler path: .*must be at most 300 characters/).waitFor();
    expect((await projectConfig(adminGet)).domains).toEqual([{ domain: "https://app.example.com", handler_path: "/auth" }]);
    await expectAccessibleAndNarrow(page);
    // Cancelling keeps the old path; saving a good one stores it.
    await edit.getByRole("button", { name: "Cancel" }).click();
    await list.getByText("Handler path: /auth").waitFor();
    await list.getByRole("button", { name: "Edit the handler path of https://app.example.com" }).click();
    await edit.getByLabel("New handler path").fill("/auth/v2");
    await edit.getByRole("button", { name: "Save handler path" }).click();
    await list.getByRole("status").getByText("Handler path saved.").waitFor();
    await list.getByText("Handler path: /auth/v2").waitFor();
    expect((await projectConfig(adminGet)).domains).toEqual([{ domain: "https://app.example.com", handler_path: "/auth/v2" }]);

    await page.reload();
    await page.getByRole("list", { name: "Trusted domains" }).getByText("Handler path: /auth/v2").waitFor();
    await expectAccessibleAndNarrow(page);

    // Removing asks first; cancelling keeps the domain.
    await page.getByRole("button", { name: "Remove https://app.example.com" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove this trusted domain?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await projectConfig(adminGet)).domains).toHaveLength(1);
    await page.getByRole("button", { name: "Remove https://app.example.com" }).click();
    await dialog.getByRole("button", { name: "Remove domain" }).click();
    await page.getByText("No trusted domains yet.").waitFor();
    expect((await projectConfig(adminGet)).domains).toEqual([]);

    const localhost = page.getByRole("region", { name: "Localhost" });
    await localhost.getByRole("checkbox", { name: "Allow localhost" }).uncheck();
    await localhost.getByRole("button", { name: "Save" }).click();
    await localhost.getByRole("status").getByText("Saved.").waitFor();
    expect((await projectConfig(adminGet)).allow_localhost).toBe(false);
  });
});

describe("the Keys page", () => {
  it("shows a new key set's values once, and the server key works until it is revoked", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    await openSection(page, "Keys");
    const card = page.getByRole("region", { name: "Key sets", exact: true });
    // The key set made with the project (shown on Get started) is listed already.
    await card.getByRole("row").filter({ hasText: "App keys (Get started)" }).getByText("Never").waitFor();

    await card.getByRole("button", { name: "Create keys" }).click();
    await card.getByText("Describe what the keys are for").waitFor();
    await card.getByLabel("Description").fill("CI server");
    await card.getByLabel("Expires after").selectOption({ label: "30 days" });
    await card.getByRole("button", { name: "Create keys" }).click();

    const once = card.getByRole("region", { name: "New keys: CI server" });
    await once.getByText("You will not see them again").waitFor();
    const secretServerKey = (await once.getByTestId("new-secretServerKey").textContent())!;
    const publishableKey = (await once.getByTestId("new-publishableClientKey").textContent())!;
    expect(secretServerKey.length).toBeGreaterThan(20);
    await once.getByRole("button", { name: "Copy the secret server key" }).waitFor();
    expect(await once.getByTestId("new-superSecretAdminKey").count()).toBe(0);
    await expectAccessibleAndNarrow(page);

    // The shown secret server key is a working key of this project.
    const serverGet = api(projectId, "server", secretServerKey);
    expect((await serverGet("/users")).status).toBe(200);

    await once.getByRole("button", { name: "I have copied the keys" }).click();
    await page.reload();
    const table = page.getByRole("region", { name: "Key sets table" });
    const row = table.getByRole("row").filter({ hasText: "CI server" });
    await row.getByText(`Secret server key …${secretServerKey.slice(-4)}`).waitFor();
    await row.getByText("Active").waitFor();
    const html = await page.content();
    expect(html).not.toContain(secretServerKey);
    expect(html).not.toContain(publishableKey);

    // Revoking asks first, then the API refuses the key.
    await row.getByRole("button", { name: "Revoke CI server" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this key set?" });
    await dialog.getByRole("button", { name: "Revoke keys" }).click();
    await row.getByText("Revoked").waitFor();
    expect(await row.getByRole("button", { name: "Revoke CI server" }).count()).toBe(0);
    const refused = await serverGet("/users");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-stack-known-error")).toBeTruthy();
  });

  it("edits the config override as JSON, keeping the text through invalid JSON and the server's refusal", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const adminGet = await adminApi(projectId);
    await page.goto(`${harness.server.url}/dashboard/projects/${projectId}/keys`);
    const card = page.getByRole("region", { name: "Configuration override" });
    const apply = card.getByRole("button", { name: "Apply override" });

    // It starts empty, with an example as its placeholder (nothing to delete first), and applying nothing says so.
    const editor = card.getByRole("textbox", { name: "Override (JSON)" });
    await card.locator(".cm-placeholder").getByText('"auth.passkey.allowSignIn": true').waitFor();
    expect(await editor.getAttribute("aria-placeholder")).toContain('"auth.passkey.allowSignIn": true');
    const typedText = (content: HTMLElement) => {
      const copy = content.cloneNode(true) as HTMLElement;
      copy.querySelectorAll(".cm-placeholder").forEach((shown) => shown.remove());
      return copy.textContent;
    };
    expect(await editor.evaluate(typedText)).toBe("");
    await expectNoAxeViolations(page);
    await apply.click();
    await card.getByRole("alert").getByText("Write the override first").waitFor();

    await replaceEditorText(page, '{ "auth.passkey.allowSignIn": true, ');
    await apply.click();
    await card.getByRole("alert").getByText("This is not valid JSON").waitFor();
    expect(await card.getByRole("textbox", { name: "Override (JSON)" }).textContent()).toContain('"auth.passkey.allowSignIn": true,');

    await replaceEditorText(page, '{ "auth.noSuchSetting": true }');
    await apply.click();
    await card.getByRole("alert").getByText('The key "auth.noSuchSetting" is not valid for the schema.').waitFor();
    expect(await card.getByRole("textbox", { name: "Override (JSON)" }).textContent()).toContain("auth.noSuchSetting");

    await replaceEditorText(page, '{ "auth.passkey.allowSignIn": true, "auth.allowSignUp": false }');
    await apply.click();
    await card.getByRole("status").getByText("Saved.").waitFor();
    const config = await projectConfig(adminGet);
    expect(config.passkey_enabled).toBe(true);
    expect(config.sign_up_enabled).toBe(false);
    await expectAccessibleAndNarrow(page);

    // The current configuration shows the change after a reload, and the Authentication page agrees.
    await page.reload();
    await page.getByText("Current configuration").click();
    const current = JSON.parse((await page.getByTestId("current-config").textContent())!) as { auth: { passkey: { allowSignIn: boolean }; allowSignUp: boolean } };
    expect(current.auth).toMatchObject({ allowSignUp: false, passkey: { allowSignIn: true } });
    await expectNoAxeViolations(page);
    await openSection(page, "Authentication");
    expect(await page.getByRole("checkbox", { name: "Passkey sign-in" }).isChecked()).toBe(true);
  });

  it("asks before leaving the config override with unapplied edits: staying keeps them, applying lets go", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const adminGet = await adminApi(projectId);
    await page.goto(`${harness.server.url}/dashboard/projects/${projectId}/keys`);
    const card = page.getByRole("region", { name: "Configuration override" });
    const editor = card.getByRole("textbox", { name: "Override (JSON)" });
    await replaceEditorText(page, '{ "auth.allowSignUp": false }');

    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await openSection(page, "Authentication");
    await leave.getByText("Your changes here are not saved yet.").waitFor();
    await expectNoAxeViolations(page);
    await leave.getByRole("button", { name: "Cancel" }).click();
    await leave.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toMatch(/\/keys$/);
    expect(await editor.textContent()).toContain('"auth.allowSignUp": false');

    // Closing the page gets the browser's own question; staying keeps the text.
    const question = new Promise<string>((resolve) => page.once("dialog", (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
    await page.close({ runBeforeUnload: true });
    expect(await question).toBe("beforeunload");
    expect(await editor.textContent()).toContain('"auth.allowSignUp": false');

    // Applied, the text is saved: leaving asks nothing.
    await card.getByRole("button", { name: "Apply override" }).click();
    await card.getByRole("status").getByText("Saved.").waitFor();
    expect((await projectConfig(adminGet)).sign_up_enabled).toBe(false);
    await openSection(page, "Authentication");
    await page.waitForURL(/\/authentication$/);
    const signUp = page.getByRole("checkbox", { name: "New users can sign up" });
    await signUp.waitFor();
    expect(await signUp.isChecked()).toBe(false);
  });
});
