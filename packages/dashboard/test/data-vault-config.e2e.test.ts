import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessibleAndNarrow, keyAdmin, openSection, ownerWithProject, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The Data vault and Config pages (issue 33) as an owner uses them; every change is checked through the API
 * with a key of the project, and the other pages' view of the same config.
 */
const harness = useDashboardHarness();

type Config = { auth: { allowSignUp: boolean }; dataVault: { stores: Record<string, { displayName: string }> } };

/** Replaces the CodeMirror editor's text as a person would: select all, type. */
async function replaceEditorText(page: Page, name: string, text: string) {
  await page.getByRole("textbox", { name }).click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

describe("the Data vault page", () => {
  it("creates, renames and deletes stores through the config, which the vault's API follows", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "data vault e2e");
    await openSection(page, "Data vault");
    await page.getByText("No stores yet.").waitFor();

    const create = page.getByRole("form", { name: "Create a store" });
    await create.getByLabel("Store id").fill("9 tokens");
    await create.getByRole("button", { name: "Create store" }).click();
    await create.getByText("An id starts with a letter or _ and has only letters, digits, _ and -.").waitFor();
    await create.getByLabel("Store id").fill("tokens");
    await create.getByLabel("Display name").fill("OAuth tokens");
    await create.getByRole("button", { name: "Create store" }).click();
    await page.getByRole("status").getByText("Created the store tokens.").waitFor();
    const table = page.getByRole("table", { name: "Data vault stores" });
    await table.getByRole("row").filter({ hasText: "OAuth tokens" }).waitFor();
    expect(((await admin.getConfig()) as Config).dataVault.stores).toEqual({ tokens: { displayName: "OAuth tokens" } });
    // An app can use it now.
    const store = await admin.getDataVaultStore("tokens");
    await store.setValue("k", "v", { secret: "app secret" });
    expect(await store.getValue("k", { secret: "app secret" })).toBe("v");

    await create.getByLabel("Store id").fill("tokens");
    await create.getByRole("button", { name: "Create store" }).click();
    await create.getByText("There is already a store with this id.").waitFor();

    await page.getByRole("button", { name: "Rename the store tokens" }).click();
    const rename = page.getByRole("form", { name: "Rename the store tokens" });
    await rename.getByLabel("Display name").fill("Provider tokens");
    await rename.getByRole("button", { name: "Save name" }).click();
    await page.getByRole("status").getByText("Renamed the store tokens.").waitFor();
    await table.getByRole("row").filter({ hasText: "Provider tokens" }).waitFor();
    expect(((await admin.getConfig()) as Config).dataVault.stores.tokens).toEqual({ displayName: "Provider tokens" });
    await expectAccessibleAndNarrow(page);

    await page.getByRole("button", { name: "Delete the store tokens" }).click();
    await page.getByRole("dialog", { name: "Delete this store?" }).getByRole("button", { name: "Delete store" }).click();
    await page.getByText("No stores yet.").waitFor();
    expect(((await admin.getConfig()) as Config).dataVault.stores).toEqual({});
    await expect(store.getValue("k", { secret: "app secret" })).rejects.toMatchObject({ code: "DATA_VAULT_STORE_DOES_NOT_EXIST" });
  });
});

describe("the Config page", () => {
  it("edits the whole rendered config as JSON, shows the server's refusal inline, and agrees with the other pages", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "config e2e");
    await openSection(page, "Config");
    const card = page.getByRole("region", { name: "Configuration", exact: true });
    const editor = card.getByRole("textbox", { name: "Configuration (JSON)" });
    await editor.getByText('"sourceOfTruth"').waitFor();
    const save = card.getByRole("button", { name: "Save configuration" });

    await save.click();
    await card.getByRole("status").getByText("Nothing changed.").waitFor();

    const config = (await admin.getConfig()) as Config;
    await replaceEditorText(page, "Configuration (JSON)", JSON.stringify({ ...config, nonExistentField: 1 }, null, 2));
    await save.click();
    await card.getByRole("alert").getByText('[ERROR] The key "nonExistentField" is not valid for the schema.').waitFor();

    await replaceEditorText(page, "Configuration (JSON)", "{ not json");
    await save.click();
    await card.getByRole("alert").getByText("This is not valid JSON").waitFor();

    const edited = { ...config, auth: { ...config.auth, allowSignUp: false }, dataVault: { stores: { keys: { displayName: "Keys" } } } };
    await replaceEditorText(page, "Configuration (JSON)", JSON.stringify(edited, null, 2));
    await save.click();
    await card.getByRole("status").getByText("Saved 2 changes.").waitFor();
    const after = (await admin.getConfig()) as Config;
    expect(after.auth.allowSignUp).toBe(false);
    expect(after.dataVault.stores).toEqual({ keys: { displayName: "Keys" } });
    expect((await admin.getAdminProject()).config.sign_up_enabled).toBe(false);
    await expectAccessibleAndNarrow(page);

    // The other way round: a change made elsewhere shows here after Reload, and on the pages that own it.
    await admin.updateConfigOverride({ "auth.allowSignUp": true });
    await card.getByRole("button", { name: "Reload" }).click();
    await card.getByRole("status").getByText("Reloaded the saved configuration.").waitFor();
    await openSection(page, "Authentication");
    await expect.poll(() => page.getByRole("checkbox", { name: "New users can sign up" }).isChecked()).toBe(true);
    await openSection(page, "Data vault");
    await page.getByRole("table", { name: "Data vault stores" }).getByRole("row").filter({ hasText: "Keys" }).waitFor();
  });
});
