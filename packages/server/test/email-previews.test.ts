import { describe, expect, it } from "vitest";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, server, useServerForFile } from "./support/users-fixture.js";

// Issue 19: what renders a theme or template for the admin (the template PATCH's `rendered_html`, a theme PATCH's
// check, POST /emails/render-email), through the real sandboxed renderer.
useServerForFile();

const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";
const VERIFICATION = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";
const MAGIC_LINK = "822687fe-8d0a-4467-a0d1-416b6e639478";

const MARKED_THEME = `export function EmailTheme({ children }) { return <html><body><div id="marked-theme">{children}</div></body></html>; }`;
const HELLO_TEMPLATE = `import { Subject } from "@stackframe/emails";
export function EmailTemplate({ user, project, variables }) {
  return <><Subject value={"Hello " + variables.name} /><p>Hi {user.displayName} from {project.displayName}: {variables.name}</p></>;
}
EmailTemplate.PreviewVariables = { name: "preview name" };`;

/** Templates can be changed only while the project has its own email server (nothing is sent here). */
async function projectWithOwnEmailServer(name?: string): Promise<TestProject> {
  const project = await createTestProject(server, name);
  await configure(project, { "emails.server": { isShared: false, host: "127.0.0.1", port: 2525, username: "u", password: "p", senderName: "Acme", senderEmail: "mail@acme.example" } });
  return project;
}

async function template(project: TestProject, id: string) {
  return (await as(project, "admin", `/internal/email-templates/${id}`)).body;
}

async function themeWithSource(project: TestProject, source: string): Promise<string> {
  const { id } = (await as(project, "admin", "/internal/email-themes", { method: "POST", body: { display_name: "Marked" } })).body;
  const patched = await as(project, "admin", `/internal/email-themes/${id}`, { method: "PATCH", body: { tsx_source: source } });
  expect(patched.status, patched.text).toBe(200);
  return id;
}

describe("PATCH /internal/email-templates/{id}", () => {
  it("saves a template that renders and answers its preview, on the theme it names", async () => {
    const project = await projectWithOwnEmailServer("Acme");
    const theme = await themeWithSource(project, MARKED_THEME);
    const response = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`, { method: "PATCH", body: { tsx_source: HELLO_TEMPLATE, theme_id: theme } });
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body)).toEqual(["rendered_html"]);
    expect(response.body.rendered_html).toContain('<div id="marked-theme"><p>Hi John Doe from Acme: preview name</p></div>');
    expect(await template(project, VERIFICATION)).toEqual({ id: VERIFICATION, display_name: "Email Verification", tsx_source: HELLO_TEMPLATE, theme_id: theme });
    const config = JSON.parse((await as(project, "admin", "/internal/config")).body.config_string);
    expect(config.emails.templates[VERIFICATION]).toEqual({ displayName: "Email Verification", tsxSource: HELLO_TEMPLATE, themeId: theme });
  });

  it("renders the built-in template on the selected theme, with no theme for false; a rename keeps the theme, a new source without theme_id goes back to the selected one", async () => {
    const project = await projectWithOwnEmailServer();
    const onSelected = await as(project, "admin", `/internal/email-templates/${MAGIC_LINK}`, { method: "PATCH", body: { theme_id: null } });
    expect(onSelected.status, onSelected.text).toBe(200);
    expect(onSelected.body.rendered_html).toContain("3SLSWZ");
    expect(onSelected.body.rendered_html).toContain("<body");
    expect((await template(project, MAGIC_LINK)).theme_id).toBeUndefined();

    const bare = await as(project, "admin", `/internal/email-templates/${MAGIC_LINK}`, { method: "PATCH", body: { theme_id: false } });
    expect(bare.body.rendered_html).toMatch(/^<!DOCTYPE[^>]*><html dir="ltr" lang="en"><head><\/head><body><table/);
    expect(bare.body.rendered_html).toContain("3SLSWZ");
    const renamed = await as(project, "admin", `/internal/email-templates/${MAGIC_LINK}`, { method: "PATCH", body: { display_name: "Codes" } });
    expect(renamed.body.rendered_html).toBe(bare.body.rendered_html);
    expect(await template(project, MAGIC_LINK)).toMatchObject({ display_name: "Codes", theme_id: false });
    // A new source without theme_id puts the template back on the selected theme, as the reference does.
    const source = (await template(project, MAGIC_LINK)).tsx_source;
    const resourced = await as(project, "admin", `/internal/email-templates/${MAGIC_LINK}`, { method: "PATCH", body: { tsx_source: source } });
    expect(resourced.status, resourced.text).toBe(200);
    expect(resourced.body.rendered_html).toBe(onSelected.body.rendered_html);
    expect((await template(project, MAGIC_LINK)).theme_id).toBeUndefined();
  });

  it("refuses a template that does not compile or throws, with the error and its line, and saves nothing", async () => {
    const project = await projectWithOwnEmailServer();
    const before = await template(project, VERIFICATION);
    const broken = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`, { method: "PATCH", body: { tsx_source: "export function EmailTemplate() {\n  return <div>;\n}" } });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("EMAIL_RENDERING_ERROR");
    // `<div>;` opens JSX text that the `}` on line 3 cannot be part of.
    expect(broken.body.details.error).toContain("line 3");
    const throwing = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`, { method: "PATCH", body: { tsx_source: 'export function EmailTemplate() { throw new Error("boom"); }' } });
    expect(throwing.status).toBe(400);
    expect(throwing.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect(throwing.body.details.error).toContain("boom");
    expect(await template(project, VERIFICATION)).toEqual(before);
  });

  it("refuses a theme the project does not have, and answers 404 for an unknown template", async () => {
    const project = await projectWithOwnEmailServer();
    const unknownTheme = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`, { method: "PATCH", body: { theme_id: crypto.randomUUID() } });
    expect(unknownTheme.status).toBe(400);
    expect(unknownTheme.text).toBe("No theme found with given id");
    expect((await template(project, VERIFICATION)).theme_id).toBeUndefined();
    const unknownTemplate = await as(project, "admin", `/internal/email-templates/${crypto.randomUUID()}`, { method: "PATCH", body: { tsx_source: HELLO_TEMPLATE } });
    expect(unknownTemplate.status).toBe(404);
    expect(unknownTemplate.text).toBe("No template found with given id");
    const badThemeValue = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`, { method: "PATCH", body: { theme_id: true } });
    expect(badThemeValue.body.code).toBe("SCHEMA_ERROR");
  });

  it("works through the published SDK's updateEmailTemplate", async () => {
    const project = await projectWithOwnEmailServer("Acme");
    const admin = stackSdk(server, project).admin();
    const { renderedHtml } = await admin.updateEmailTemplate(VERIFICATION, HELLO_TEMPLATE, DARK);
    expect(renderedHtml).toContain("preview name");
    expect((await template(project, VERIFICATION)).theme_id).toBe(DARK);
  });
});

describe("PATCH /internal/email-themes/{id} with a source", () => {
  it("refuses a theme that does not render, and keeps the old source", async () => {
    const project = await createTestProject(server);
    const id = await themeWithSource(project, MARKED_THEME);
    for (const source of ["export function EmailTheme( {", "export const nothing = 1;", "export function EmailTheme() { return undefinedThing.x; }"]) {
      const refused = await as(project, "admin", `/internal/email-themes/${id}`, { method: "PATCH", body: { tsx_source: source } });
      expect(refused.status, source).toBe(400);
      expect(refused.body.code).toBe("EMAIL_RENDERING_ERROR");
    }
    expect((await as(project, "admin", `/internal/email-themes/${id}`)).body.tsx_source).toBe(MARKED_THEME);
  });
});

describe("POST /emails/render-email", () => {
  const render = (project: TestProject, body: unknown) => as(project, "admin", "/emails/render-email", { method: "POST", body });

  it("renders inline sources with variables over the preview ones", async () => {
    const project = await createTestProject(server, "Acme");
    const response = await render(project, { theme_tsx_source: MARKED_THEME, template_tsx_source: HELLO_TEMPLATE, variables: { name: "<b>Ada</b>" } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.subject).toBe("Hello <b>Ada</b>");
    expect(response.body.html).toContain('<div id="marked-theme">');
    expect(response.body.html).toContain("&lt;b&gt;Ada&lt;/b&gt;");
    expect(response.body.html).not.toContain("<b>Ada</b>");
  });

  it("renders a stored template by id on its theme, the selected one, none, or the one named", async () => {
    const project = await projectWithOwnEmailServer("Acme");
    const marked = await themeWithSource(project, MARKED_THEME);
    const selected = await render(project, { template_id: MAGIC_LINK });
    expect(selected.body).toMatchObject({ subject: "Sign in to Acme: Your code is 3SLSWZ", notification_category: "Transactional" });
    expect(selected.body.html).toContain("<body");
    expect(selected.body.html).not.toContain("marked-theme");
    expect((await render(project, { template_id: MAGIC_LINK, theme_id: marked })).body.html).toContain("marked-theme");
    expect((await render(project, { template_id: MAGIC_LINK, theme_id: false })).body.html).toContain('<html dir="ltr" lang="en"><head></head><body><table');

    await as(project, "admin", `/internal/email-templates/${MAGIC_LINK}`, { method: "PATCH", body: { theme_id: marked } });
    expect((await render(project, { template_id: MAGIC_LINK })).body.html).toContain("marked-theme");
    expect((await render(project, { template_id: MAGIC_LINK, theme_id: null })).body.html).not.toContain("marked-theme");
  });

  it("says which input is wrong", async () => {
    const project = await createTestProject(server);
    const unknownTemplate = await render(project, { template_id: crypto.randomUUID() });
    expect(unknownTemplate.status).toBe(400);
    expect(unknownTemplate.text).toBe("No template found with given id");
    const unknownTheme = await render(project, { template_id: VERIFICATION, theme_id: crypto.randomUUID() });
    expect(unknownTheme.status).toBe(400);
    expect(unknownTheme.text).toBe("No theme found with given id");
    const missingVariable = await render(project, { template_id: VERIFICATION, variables: { emailVerificationLink: 5 } });
    expect(missingVariable.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect(missingVariable.body.details.error).toContain("emailVerificationLink");
    expect((await render(project, { template_tsx_source: HELLO_TEMPLATE, extra: 1 })).body.code).toBe("SCHEMA_ERROR");
  });

  it("is for admins only, and renders only the caller's project's templates and themes", async () => {
    const mine = await createTestProject(server);
    const theirs = await createTestProject(server);
    const marked = await themeWithSource(mine, MARKED_THEME);
    for (const access of ["client", "server"] as const) {
      const response = await as(mine, access, "/emails/render-email", { method: "POST", body: { template_id: VERIFICATION } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    expect((await render(theirs, { template_id: VERIFICATION, theme_id: marked })).text).toBe("No theme found with given id");
  });
});
