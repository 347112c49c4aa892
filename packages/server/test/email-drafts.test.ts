import { describe, expect, it } from "vitest";
import { NEW_EMAIL_DRAFT_SOURCE } from "../src/email/built-in-templates.js";
import { SDK_VERSIONS, stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, server, useServerForFile } from "./support/users-fixture.js";

// Issue 19: /internal/email-drafts, one-off TSX mails in the email_drafts table (migration 0025).
useServerForFile();

const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";

async function createDraft(project: TestProject, body: Record<string, unknown>): Promise<string> {
  const created = await as(project, "admin", "/internal/email-drafts", { method: "POST", body });
  expect(created.status, created.text).toBe(200);
  expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  return created.body.id;
}

describe("email drafts", () => {
  it("creates a draft from the default source, lists and reads it", async () => {
    const project = await createTestProject(server);
    expect((await as(project, "admin", "/internal/email-drafts")).body).toEqual({ drafts: [] });
    const id = await createDraft(project, { display_name: "Launch" });
    const expected = { id, display_name: "Launch", tsx_source: NEW_EMAIL_DRAFT_SOURCE, sent_at_millis: null };
    expect((await as(project, "admin", `/internal/email-drafts/${id}`)).body).toEqual(expected);
    expect((await as(project, "admin", "/internal/email-drafts")).body).toEqual({ drafts: [expected] });
  });

  it("keeps the three kinds of theme apart: a theme id, false for none, absent for the selected theme", async () => {
    const project = await createTestProject(server);
    const dark = await createDraft(project, { display_name: "Dark", theme_id: DARK, tsx_source: "export function EmailTemplate() { return null; }" });
    const none = await createDraft(project, { display_name: "None", theme_id: false });
    const selected = await createDraft(project, { display_name: "Selected", theme_id: null });
    const drafts = (await as(project, "admin", "/internal/email-drafts")).body.drafts;
    expect(drafts.map((d: { id: string }) => d.id)).toEqual([dark, none, selected]);
    expect(drafts[0]).toMatchObject({ theme_id: DARK, tsx_source: "export function EmailTemplate() { return null; }" });
    expect(drafts[1].theme_id).toBe(false);
    expect("theme_id" in drafts[2]).toBe(false);
  });

  it("changes a draft field by field (each PATCH answering the protocol's { ok: \"ok\" }), marks it sent and unsent, and deletes it", async () => {
    const project = await createTestProject(server);
    const id = await createDraft(project, { display_name: "Draft", theme_id: false });
    const patch = async (body: Record<string, unknown>) => {
      const response = await as(project, "admin", `/internal/email-drafts/${id}`, { method: "PATCH", body });
      expect(response.status, response.text).toBe(200);
      expect(response.text).toBe('{"ok":"ok"}');
      return (await as(project, "admin", `/internal/email-drafts/${id}`)).body;
    };
    expect(await patch({ display_name: "Renamed" })).toMatchObject({ id, display_name: "Renamed", theme_id: false, tsx_source: NEW_EMAIL_DRAFT_SOURCE });
    expect(await patch({ theme_id: DARK, tsx_source: "new source" })).toMatchObject({ display_name: "Renamed", theme_id: DARK, tsx_source: "new source" });
    expect("theme_id" in (await patch({ theme_id: null }))).toBe(false);

    const sentAt = Date.now() - 60_000;
    expect((await patch({ sent_at_millis: sentAt })).sent_at_millis).toBe(sentAt);
    expect((await patch({ sent_at_millis: null })).sent_at_millis).toBeNull();

    const deleted = await as(project, "admin", `/internal/email-drafts/${id}`, { method: "DELETE" });
    expect(deleted.body).toEqual({ success: true });
    expect((await as(project, "admin", `/internal/email-drafts/${id}`)).status).toBe(404);
    expect((await as(project, "admin", "/internal/email-drafts")).body.drafts).toEqual([]);
  });

  it("refuses a theme the project does not have, and bad bodies", async () => {
    const project = await createTestProject(server);
    const unknownTheme = await as(project, "admin", "/internal/email-drafts", { method: "POST", body: { display_name: "x", theme_id: crypto.randomUUID() } });
    expect(unknownTheme.status).toBe(400);
    expect(unknownTheme.text).toBe("No theme found with given id");
    expect((await as(project, "admin", "/internal/email-drafts")).body.drafts).toEqual([]);

    const id = await createDraft(project, { display_name: "x" });
    const patchUnknown = await as(project, "admin", `/internal/email-drafts/${id}`, { method: "PATCH", body: { theme_id: crypto.randomUUID() } });
    expect(patchUnknown.status).toBe(400);
    expect(patchUnknown.text).toBe("No theme found with given id");

    for (const body of [{}, { display_name: "" }, { display_name: "x", theme_id: true }, { display_name: "x", theme_id: "light" }, { display_name: "x", sent_at_millis: 1 }]) {
      const response = await as(project, "admin", "/internal/email-drafts", { method: "POST", body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("SCHEMA_ERROR");
    }
    const badPatch = await as(project, "admin", `/internal/email-drafts/${id}`, { method: "PATCH", body: { sent_at_millis: -1 } });
    expect(badPatch.body.code).toBe("SCHEMA_ERROR");
  });

  it("answers 404 for an unknown draft on every route", async () => {
    const project = await createTestProject(server);
    const unknown = crypto.randomUUID();
    for (const [method, body] of [["GET", undefined], ["PATCH", { display_name: "x" }], ["DELETE", undefined]] as const) {
      const response = await as(project, "admin", `/internal/email-drafts/${unknown}`, { method, body });
      expect(response.status, method).toBe(404);
      expect(response.text).toBe("No draft found with given id");
    }
  });

  it("a draft on a theme that is deleted goes back to the selected theme", async () => {
    const project = await createTestProject(server);
    const theme = (await as(project, "admin", "/internal/email-themes", { method: "POST", body: { display_name: "Short-lived" } })).body.id;
    const id = await createDraft(project, { display_name: "Themed", theme_id: theme });
    expect((await as(project, "admin", `/internal/email-drafts/${id}`)).body.theme_id).toBe(theme);
    await as(project, "admin", `/internal/email-themes/${theme}`, { method: "DELETE" });
    expect("theme_id" in (await as(project, "admin", `/internal/email-drafts/${id}`)).body).toBe(false);
  });

  it("is for admins only, and each project sees only its own drafts", async () => {
    const mine = await createTestProject(server);
    const theirs = await createTestProject(server);
    const id = await createDraft(mine, { display_name: "Mine" });
    for (const access of ["client", "server"] as const) {
      for (const [method, path, body] of [
        ["GET", "/internal/email-drafts"],
        ["POST", "/internal/email-drafts", { display_name: "x" }],
        ["GET", `/internal/email-drafts/${id}`],
        ["PATCH", `/internal/email-drafts/${id}`, { display_name: "x" }],
        ["DELETE", `/internal/email-drafts/${id}`],
      ] as const) {
        const response = await as(mine, access, path, { method, body });
        expect(response.status, `${access} ${method} ${path}`).toBe(401);
        expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
      }
    }
    expect((await as(theirs, "admin", "/internal/email-drafts")).body.drafts).toEqual([]);
    for (const [method, body] of [["GET", undefined], ["PATCH", { display_name: "x" }], ["DELETE", undefined]] as const) {
      expect((await as(theirs, "admin", `/internal/email-drafts/${id}`, { method, body })).status, method).toBe(404);
    }
    expect((await as(mine, "admin", `/internal/email-drafts/${id}`)).body.display_name).toBe("Mine");
  });

  it.each(SDK_VERSIONS)("works with the published SDK's admin app (%s)", async (version) => {
    const project = await createTestProject(server);
    const admin = stackSdk(server, project, version).admin();
    const { id } = await admin.createEmailDraft({ displayName: "From the SDK", themeId: false });
    await admin.updateEmailDraft(id, { displayName: "Renamed by the SDK", tsxSource: "source" });
    const drafts = await admin.listEmailDrafts();
    expect(drafts).toEqual([{ id, displayName: "Renamed by the SDK", themeId: false, tsxSource: "source", sentAt: null }]);
  });
});
