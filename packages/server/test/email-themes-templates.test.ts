import { DEFAULT_EMAIL_TEMPLATES as REFERENCE_TEMPLATES, DEFAULT_EMAIL_THEMES as REFERENCE_THEMES } from "@stackframe/stack-shared/dist/helpers/emails";
import { describe, expect, it } from "vitest";
import { createUser } from "../src/services/users.js";
import { findProject } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { getProject } from "../src/services/projects.js";
import { api } from "./support/api.js";
import { LIGHT_EMAIL_THEME_SOURCE } from "../src/email/built-in-themes.js";
import { NEW_EMAIL_TEMPLATE_SOURCE } from "../src/email/built-in-templates.js";
import { DEFAULT_EMAIL_TEMPLATES as MAILED_TEMPLATES } from "../src/email/templates.js";
import { SDK_VERSIONS, stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, server, useServerForFile } from "./support/users-fixture.js";

// Issue 19: /internal/email-themes and /internal/email-templates keep their entries in the project's config, with
// the built-in ones (the protocol's ids) merged in, as the reference does.
useServerForFile();

const LIGHT = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";
const VERIFICATION = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";

async function createTheme(project: TestProject, displayName = "Brand"): Promise<string> {
  const created = await as(project, "admin", "/internal/email-themes", { method: "POST", body: { display_name: displayName } });
  expect(created.status, created.text).toBe(200);
  expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  return created.body.id;
}

async function renderedConfig(project: TestProject) {
  const read = await as(project, "admin", "/internal/config");
  expect(read.status).toBe(200);
  return JSON.parse(read.body.config_string);
}

describe("email themes", () => {
  it("lists the two built-in themes with the protocol's ids and names", async () => {
    const project = await createTestProject(server);
    const list = await as(project, "admin", "/internal/email-themes");
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ themes: [{ id: LIGHT, display_name: "Default Light" }, { id: DARK, display_name: "Default Dark" }] });
    expect(Object.keys(REFERENCE_THEMES)).toEqual([LIGHT, DARK]);
    expect(list.body.themes.map((t: { display_name: string }) => t.display_name)).toEqual(Object.values(REFERENCE_THEMES).map((t) => t.displayName));
  });

  it("creates a theme from the Default Light source, reads, renames and changes it, and deletes it", async () => {
    const project = await createTestProject(server);
    const id = await createTheme(project, "Brand");
    const read = await as(project, "admin", `/internal/email-themes/${id}`);
    expect(read.body).toEqual({ display_name: "Brand", tsx_source: LIGHT_EMAIL_THEME_SOURCE });
    expect((await as(project, "admin", "/internal/email-themes")).body.themes).toContainEqual({ id, display_name: "Brand" });

    const source = "export function EmailTheme({ children }) { return <main>{children}</main>; }";
    const patched = await as(project, "admin", `/internal/email-themes/${id}`, { method: "PATCH", body: { tsx_source: source } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ display_name: "Brand" });
    const renamed = await as(project, "admin", `/internal/email-themes/${id}`, { method: "PATCH", body: { display_name: "Brand 2" } });
    expect(renamed.body).toEqual({ display_name: "Brand 2" });
    expect((await as(project, "admin", `/internal/email-themes/${id}`)).body).toEqual({ display_name: "Brand 2", tsx_source: source });

    const deleted = await as(project, "admin", `/internal/email-themes/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    const gone = await as(project, "admin", `/internal/email-themes/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.text).toBe("No theme found with given id");
    expect((await as(project, "admin", "/internal/email-themes")).body.themes.map((t: { id: string }) => t.id)).toEqual([LIGHT, DARK]);
  });

  it("lets a project change a built-in theme for itself, but not delete it", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const source = "export function EmailTheme({ children }) { return <div>{children}</div>; }";
    expect((await as(project, "admin", `/internal/email-themes/${DARK}`, { method: "PATCH", body: { tsx_source: source } })).body).toEqual({ display_name: "Default Dark" });
    expect((await as(project, "admin", `/internal/email-themes/${DARK}`)).body.tsx_source).toBe(source);
    expect((await as(other, "admin", `/internal/email-themes/${DARK}`)).body.tsx_source).not.toBe(source);

    const refused = await as(project, "admin", `/internal/email-themes/${LIGHT}`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe("A built-in email theme cannot be deleted");
    expect((await as(project, "admin", "/internal/email-themes")).body.themes).toHaveLength(2);
  });

  it("answers 404 for an unknown id on every theme route, and a schema error for a malformed one", async () => {
    const project = await createTestProject(server);
    const unknown = crypto.randomUUID();
    for (const [method, body] of [["GET", undefined], ["PATCH", { tsx_source: "x" }], ["DELETE", undefined]] as const) {
      const response = await as(project, "admin", `/internal/email-themes/${unknown}`, { method, body });
      expect(response.status, method).toBe(404);
      expect(response.text).toBe("No theme found with given id");
    }
    const malformed = await as(project, "admin", "/internal/email-themes/not-a-uuid");
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("SCHEMA_ERROR");
  });

  it("refuses bad bodies with the protocol's schema error", async () => {
    const project = await createTestProject(server);
    // A number for the name is cast to its text, as the protocol's validator casts it; an object is not.
    for (const body of [{}, { display_name: "" }, { display_name: { text: "x" } }, { display_name: "x", extra: true }]) {
      const response = await as(project, "admin", "/internal/email-themes", { method: "POST", body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("SCHEMA_ERROR");
    }
    const tooLong = await as(project, "admin", `/internal/email-themes/${LIGHT}`, { method: "PATCH", body: { tsx_source: "x".repeat(200_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe("SCHEMA_ERROR");
  });

  it("shows themes in /internal/config and the legacy config's email_theme; deleting the selected theme selects Default Light", async () => {
    const project = await createTestProject(server);
    const id = await createTheme(project, "Selected");
    let config = await renderedConfig(project);
    expect(Object.keys(config.emails.themes)).toEqual([LIGHT, DARK, id]);
    expect(config.emails.themes[id]).toEqual({ displayName: "Selected", tsxSource: LIGHT_EMAIL_THEME_SOURCE });
    expect(config.emails.selectedThemeId).toBe(LIGHT);

    const selected = await as(project, "admin", "/internal/projects/current", { method: "PATCH", body: { config: { email_theme: id } } });
    expect(selected.status).toBe(200);
    expect(selected.body.config.email_theme).toBe(id);
    expect((await renderedConfig(project)).emails.selectedThemeId).toBe(id);

    await as(project, "admin", `/internal/email-themes/${id}`, { method: "DELETE" });
    config = await renderedConfig(project);
    expect(config.emails.selectedThemeId).toBe(LIGHT);
    expect(config.emails.themes[id]).toBeUndefined();
    expect((await as(project, "admin", "/internal/projects/current")).body.config.email_theme).toBe(LIGHT);
  });

  it("sees a theme written through /internal/config/override", async () => {
    const project = await createTestProject(server);
    const id = crypto.randomUUID();
    await as(project, "admin", "/internal/config/override", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ emails: { themes: { [id]: { displayName: "Nested", tsxSource: "src" } } } }) },
    });
    expect((await as(project, "admin", `/internal/email-themes/${id}`)).body).toEqual({ display_name: "Nested", tsx_source: "src" });
    expect((await as(project, "admin", `/internal/email-themes/${id}`, { method: "DELETE" })).status).toBe(200);
    expect((await as(project, "admin", `/internal/email-themes/${id}`)).status).toBe(404);
  });
});

describe("email templates", () => {
  it("lists the five built-in templates with the protocol's ids and names, on the selected theme", async () => {
    const project = await createTestProject(server);
    const list = await as(project, "admin", "/internal/email-templates");
    expect(list.status).toBe(200);
    const reference = Object.entries(REFERENCE_TEMPLATES).map(([id, t]) => ({ id, display_name: t.displayName }));
    expect(list.body.templates.map((t: { id: string; display_name: string }) => ({ id: t.id, display_name: t.display_name }))).toEqual(reference);
    // The same ids as the mails the server sends today name their template by.
    expect(Object.values(MAILED_TEMPLATES).map((t) => t.protocolTemplateId).sort()).toEqual(Object.keys(REFERENCE_TEMPLATES).sort());
    for (const template of list.body.templates) {
      expect(template.theme_id).toBeUndefined();
      expect(template.tsx_source).toContain("export function EmailTemplate");
      expect(template.tsx_source).toContain("<Subject");
    }
    const verification = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`);
    expect(verification.body).toMatchObject({ id: VERIFICATION, display_name: "Email Verification" });
    expect(verification.body.tsx_source).toContain("variables.emailVerificationLink");
  });

  it("creates a template that is listed, read and shown in /internal/config", async () => {
    const project = await createTestProject(server);
    const created = await as(project, "admin", "/internal/email-templates", { method: "POST", body: { display_name: "Weekly digest" } });
    expect(created.status).toBe(200);
    const { id } = created.body;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await as(project, "admin", `/internal/email-templates/${id}`)).body).toEqual({ id, display_name: "Weekly digest", tsx_source: NEW_EMAIL_TEMPLATE_SOURCE });
    const list = (await as(project, "admin", "/internal/email-templates")).body.templates;
    expect(list).toHaveLength(6);
    expect(list.at(-1)).toEqual({ id, display_name: "Weekly digest", tsx_source: NEW_EMAIL_TEMPLATE_SOURCE });
    expect((await renderedConfig(project)).emails.templates[id]).toEqual({ displayName: "Weekly digest", tsxSource: NEW_EMAIL_TEMPLATE_SOURCE });
  });

  it("answers 404 for an unknown template and refuses bad bodies", async () => {
    const project = await createTestProject(server);
    const unknown = await as(project, "admin", `/internal/email-templates/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe("No template found with given id");
    for (const body of [{}, { display_name: "" }, { display_name: "x", theme_id: LIGHT }]) {
      const response = await as(project, "admin", "/internal/email-templates", { method: "POST", body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("SCHEMA_ERROR");
    }
  });

  it("a template's theme set through the config override is listed as theme_id (an id or false)", async () => {
    const project = await createTestProject(server);
    await as(project, "admin", "/internal/config/override", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ [`emails.templates.${VERIFICATION}.themeId`]: DARK }) },
    });
    let template = (await as(project, "admin", `/internal/email-templates/${VERIFICATION}`)).body;
    expect(template).toMatchObject({ id: VERIFICATION, display_name: "Email Verification", theme_id: DARK });
    await as(project, "admin", "/internal/config/override", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ [`emails.templates.${VERIFICATION}.themeId`]: false }) },
    });
    template = (await as(project, "admin", `/internal/email-templates/${VERIFICATION}`)).body;
    expect(template.theme_id).toBe(false);
  });

  it("a template on a theme that is deleted goes back to the selected theme", async () => {
    const project = await createTestProject(server);
    const id = await createTheme(project);
    await as(project, "admin", "/internal/config/override", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ [`emails.templates.${VERIFICATION}.themeId`]: id }) },
    });
    expect((await as(project, "admin", `/internal/email-templates/${VERIFICATION}`)).body.theme_id).toBe(id);
    await as(project, "admin", `/internal/email-themes/${id}`, { method: "DELETE" });
    const template = (await as(project, "admin", `/internal/email-templates/${VERIFICATION}`)).body;
    expect(template.theme_id).toBeUndefined();
    expect(template.display_name).toBe("Email Verification");
  });
});

describe("who may use the email theme and template routes", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/internal/email-themes"],
    ["POST", "/internal/email-themes", { display_name: "x" }],
    ["GET", `/internal/email-themes/${LIGHT}`],
    ["PATCH", `/internal/email-themes/${LIGHT}`, { tsx_source: "x" }],
    ["DELETE", `/internal/email-themes/${crypto.randomUUID()}`],
    ["GET", "/internal/email-templates"],
    ["POST", "/internal/email-templates", { display_name: "x" }],
    ["GET", `/internal/email-templates/${VERIFICATION}`],
  ];

  it("refuses client and server keys with INSUFFICIENT_ACCESS_TYPE, and changes nothing", async () => {
    const project = await createTestProject(server);
    for (const access of ["client", "server"] as const) {
      for (const [method, path, body] of routes) {
        const response = await as(project, access, path, { method, body });
        expect(response.status, `${access} ${method} ${path}`).toBe(401);
        expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
      }
    }
    expect((await as(project, "admin", "/internal/email-themes")).body.themes).toHaveLength(2);
    expect((await as(project, "admin", `/internal/email-themes/${LIGHT}`)).body.tsx_source).toBe(LIGHT_EMAIL_THEME_SOURCE);
  });

  it("serves the project owner's admin access token", async () => {
    const internal = await findProject(server.db, "internal");
    const owner = await createUser(server.db, internal!, { primaryEmail: `owner-${crypto.randomUUID()}@example.com` });
    const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, "internal"), userId: owner.id });
    const created = await api(server.url, "/internal/projects", {
      access: "client",
      headers: { "x-stack-access-token": tokens.access_token },
      body: { display_name: "Owned", owner_team_id: owner.selected_team_id },
    });
    expect(created.status).toBe(201);
    const headers = { "x-stack-project-id": created.body.id, "x-stack-access-type": "admin", "x-stack-admin-access-token": tokens.access_token };
    const theme = await api(server.url, "/internal/email-themes", { headers, body: { display_name: "Owner's" } });
    expect(theme.status).toBe(200);
    expect((await api(server.url, "/internal/email-themes", { headers })).body.themes).toContainEqual({ id: theme.body.id, display_name: "Owner's" });
    expect((await api(server.url, "/internal/email-templates", { headers })).body.templates).toHaveLength(5);
  });

  it("keeps every one of several themes created at the same moment", async () => {
    const project = await createTestProject(server);
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => createTheme(project, `Parallel ${i}`)));
    const listed = (await as(project, "admin", "/internal/email-themes")).body.themes.map((t: { id: string }) => t.id);
    expect(listed).toEqual(expect.arrayContaining(ids));
    expect(listed).toHaveLength(8);
  });

  it("keeps each project's themes and templates to itself", async () => {
    const mine = await createTestProject(server);
    const theirs = await createTestProject(server);
    const themeId = await createTheme(mine, "Mine");
    const template = (await as(mine, "admin", "/internal/email-templates", { method: "POST", body: { display_name: "Mine" } })).body.id;
    expect((await as(theirs, "admin", `/internal/email-themes/${themeId}`)).status).toBe(404);
    expect((await as(theirs, "admin", `/internal/email-themes/${themeId}`, { method: "PATCH", body: { tsx_source: "x" } })).status).toBe(404);
    expect((await as(theirs, "admin", `/internal/email-themes/${themeId}`, { method: "DELETE" })).status).toBe(404);
    expect((await as(theirs, "admin", `/internal/email-templates/${template}`)).status).toBe(404);
    expect((await as(theirs, "admin", "/internal/email-themes")).body.themes).toHaveLength(2);
    expect((await as(theirs, "admin", "/internal/email-templates")).body.templates).toHaveLength(5);
    expect((await as(mine, "admin", `/internal/email-themes/${themeId}`)).body.display_name).toBe("Mine");
  });
});

describe.each(SDK_VERSIONS)("the published SDK's admin app (%s)", (version) => {
  it("lists, creates and reads themes and lists templates through our routes", async () => {
    const project = await createTestProject(server);
    const admin = stackSdk(server, project, version).admin();
    expect((await admin.listEmailThemes()).map((t) => t.displayName)).toEqual(["Default Light", "Default Dark"]);
    const { id } = await admin.createEmailTheme("From the SDK");
    expect(await (admin as unknown as { _interface: { getEmailTheme(id: string): Promise<unknown> } })._interface.getEmailTheme(id)).toEqual({ display_name: "From the SDK", tsx_source: LIGHT_EMAIL_THEME_SOURCE });
    await admin.updateEmailTheme(id, "export function EmailTheme({ children }) { return children; }");
    expect((await as(project, "admin", `/internal/email-themes/${id}`)).body.tsx_source).toBe("export function EmailTheme({ children }) { return children; }");
    const templates = await admin.listEmailTemplates();
    expect(templates.map((t) => t.id)).toEqual(Object.keys(REFERENCE_TEMPLATES));
    expect(templates[0]).toMatchObject({ displayName: "Email Verification", themeId: undefined });
    const created = await admin.createEmailTemplate("From the SDK");
    expect((await admin.listEmailTemplates()).map((t) => t.id)).toContain(created.id);
  });
});
