import { describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, server, useServerForFile } from "./support/users-fixture.js";

// Issue 29 §5: the emails routes' validation texts, the order of send-email's checks, render-email's answer and
// the edits that need the project's own email server, byte for byte as the protocol's reference answers them.
useServerForFile();

const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";
const VERIFICATION = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';
const SUBJECT_TEMPLATE = `import { Subject, NotificationCategory } from "@stackframe/emails";
export function EmailTemplate() { return <><Subject value="Hello" /><NotificationCategory value="Marketing" /><p>Hi</p></>; }`;
const PLAIN_TEMPLATE = "export function EmailTemplate() { return <p>Hi</p>; }";

/** A project that sends through its own email server (nothing is sent: every request here stops before). */
async function projectWithOwnEmailServer(): Promise<TestProject> {
  const project = await createTestProject(server);
  await configure(project, { "emails.server": { isShared: false, host: "127.0.0.1", port: 2525, username: "u", password: "p", senderName: "Acme", senderEmail: "mail@acme.example" } });
  return project;
}

const sendEmail = (project: TestProject, body: unknown) => as(project, "server", "/emails/send-email", { method: "POST", body });
const renderEmail = (project: TestProject, body: unknown) => as(project, "admin", "/emails/render-email", { method: "POST", body });

function expectSchemaError(response: ApiResponse, message: string) {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ code: "SCHEMA_ERROR", details: { message }, error: message });
}

const lines = (...text: string[]) => text.join("\n");

describe("bodies of several shapes", () => {
  it("lists each of send-email's three shapes' problems when a body fits none, its unknown properties twice as the reference does", async () => {
    const project = await projectWithOwnEmailServer();
    const user = crypto.randomUUID();
    const header = "Request validation failed on POST /api/v1/emails/send-email:";
    expectSchemaError(
      await sendEmail(project, { user_ids: [user], subject: "x" }),
      lines(header, "  - body is not matched by any of the provided schemas:", "    Schema 0:", "      body.html must be defined", "    Schema 1:", "      body.template_id must be defined", "    Schema 2:", "      body.draft_id must be defined"),
    );
    const template = crypto.randomUUID();
    expectSchemaError(
      await sendEmail(project, { user_ids: [user], html: "<p>x</p>", template_id: template }),
      lines(
        header,
        "  - body is not matched by any of the provided schemas:",
        "    Schema 0:",
        "      body contains unknown properties: template_id",
        "      body contains unknown properties: template_id",
        "    Schema 1:",
        "      body contains unknown properties: html",
        "      body contains unknown properties: html",
        "    Schema 2:",
        "      body.draft_id must be defined",
        "      body contains unknown properties: html, template_id",
        "      body contains unknown properties: html, template_id",
      ),
    );
    expectSchemaError(
      await sendEmail(project, { all_users: true, html: "x", theme_id: "dark" }),
      lines(
        header,
        "  - body is not matched by any of the provided schemas:",
        "    Schema 0:",
        "      body.theme_id is invalid",
        "    Schema 1:",
        "      body.template_id must be defined",
        "      body.theme_id is invalid",
        "      body contains unknown properties: html",
        "      body contains unknown properties: html",
        "    Schema 2:",
        "      body.draft_id must be defined",
        "      body.theme_id is invalid",
        "      body contains unknown properties: html",
        "      body contains unknown properties: html",
      ),
    );
    // The published SDK gets the same text in its SchemaError.
    const sdk = stackSdk(server, project).server();
    await expect(sdk.sendEmail({ userIds: [user], subject: "x" } as never)).rejects.toMatchObject({ errorCode: "SCHEMA_ERROR", message: expect.stringContaining("    Schema 2:\n      body.draft_id must be defined") });
  });

  it("lists each of render-email's four shapes' problems when a body fits none", async () => {
    const project = await createTestProject(server);
    const header = "Request validation failed on POST /api/v1/emails/render-email:";
    const intro = "  - body is not matched by any of the provided schemas:";
    expectSchemaError(
      await renderEmail(project, {}),
      lines(header, intro, "    Schema 0:", "      body.template_id must be defined", "    Schema 1:", "      body.template_id must be defined", "      body.theme_tsx_source must be defined", "    Schema 2:", "      body.template_tsx_source must be defined", "    Schema 3:", "      body.template_tsx_source must be defined", "      body.theme_tsx_source must be defined"),
    );
    expectSchemaError(
      await renderEmail(project, { template_id: VERIFICATION, template_tsx_source: "x" }),
      lines(header, intro, "    Schema 0:", "      body contains unknown properties: template_tsx_source", "    Schema 1:", "      body.theme_tsx_source must be defined", "      body contains unknown properties: template_tsx_source", "    Schema 2:", "      body contains unknown properties: template_id", "    Schema 3:", "      body.theme_tsx_source must be defined", "      body contains unknown properties: template_id"),
    );
    expectSchemaError(
      await renderEmail(project, { template_id: VERIFICATION, theme_id: DARK, theme_tsx_source: "x" }),
      lines(header, intro, "    Schema 0:", "      body contains unknown properties: theme_tsx_source", "    Schema 1:", "      body contains unknown properties: theme_id", "    Schema 2:", "      body.template_tsx_source must be defined", "      body contains unknown properties: template_id, theme_tsx_source", "    Schema 3:", "      body.template_tsx_source must be defined", "      body contains unknown properties: template_id, theme_id"),
    );
    expectSchemaError(
      await renderEmail(project, { template_tsx_source: "x", theme_id: 5 }),
      lines(header, intro, "    Schema 0:", "      body.template_id must be defined", "      body.theme_id is invalid", "      body contains unknown properties: template_tsx_source", "    Schema 1:", "      body.template_id must be defined", "      body.theme_tsx_source must be defined", "      body contains unknown properties: template_tsx_source, theme_id", "    Schema 2:", "      body.theme_id is invalid", "    Schema 3:", "      body.theme_tsx_source must be defined", "      body contains unknown properties: theme_id"),
    );
    await expect(stackSdk(server, project).admin().getEmailPreview({})).rejects.toMatchObject({ errorCode: "SCHEMA_ERROR", message: expect.stringContaining("    Schema 3:\n      body.template_tsx_source must be defined") });
  });

  it("calls a theme id that is not absent, null, false or a UUID invalid wherever one is taken, never in the validator's own words", async () => {
    const project = await projectWithOwnEmailServer();
    const draft = (await as(project, "admin", "/internal/email-drafts", { method: "POST", body: { display_name: "Draft" } })).body.id;
    const cases: [string, string, unknown][] = [
      ["POST", "/internal/email-drafts", { display_name: "x", theme_id: "light" }],
      ["PATCH", `/internal/email-drafts/${draft}`, { theme_id: true }],
      ["PATCH", `/internal/email-templates/${VERIFICATION}`, { theme_id: 5 }],
    ];
    for (const [method, path, body] of cases) {
      expectSchemaError(await as(project, "admin", path, { method, body }), `Request validation failed on ${method} /api/v1${path}:\n  - body.theme_id is invalid`);
    }
    const bad: [typeof sendEmail, unknown][] = [
      [sendEmail, { all_users: true, html: 5, variables: 1, theme_id: {} }],
      [sendEmail, { all_users: true, template_id: "x", variables: [] }],
      [sendEmail, []],
      [renderEmail, { template_id: 1, theme_id: [], variables: "x" }],
      [renderEmail, 7],
    ];
    for (const [route, body] of bad) {
      const response = await route(project, body);
      expect(response.body.code, JSON.stringify(body)).toBe("SCHEMA_ERROR");
      expect(response.body.error).not.toMatch(/Invalid (input|string|option)|expected |received /);
    }
  });
});

describe("send-email's checks, in the reference's order", () => {
  it("asks for the project's own email server before anything else", async () => {
    const project = await createTestProject(server);
    const response = await sendEmail(project, { user_ids: [crypto.randomUUID()], all_users: true, template_id: crypto.randomUUID(), notification_category_name: "Nope" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "REQUIRES_CUSTOM_EMAIL_SERVER", error: "This action requires a custom SMTP server. Please edit your email server configuration and try again." });
  });

  it("then exactly one recipient list, then the category, the template and the draft (the users come last)", async () => {
    const project = await projectWithOwnEmailServer();
    const stranger = crypto.randomUUID();
    const message = "Exactly one of user_ids or all_users must be provided";
    expectSchemaError(await sendEmail(project, { user_ids: [stranger], all_users: true, template_id: crypto.randomUUID(), notification_category_name: "Nope" }), message);
    expectSchemaError(await sendEmail(project, { draft_id: crypto.randomUUID(), notification_category_name: "Nope" }), message);
    const plain = async (body: unknown, text: string) => {
      const response = await sendEmail(project, body);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(response.text).toBe(text);
    };
    await plain({ user_ids: [stranger], template_id: crypto.randomUUID(), notification_category_name: "Nope" }, "Notification category not found with given name");
    await plain({ user_ids: [stranger], template_id: crypto.randomUUID() }, "No template found with given template_id");
    await plain({ all_users: true, draft_id: crypto.randomUUID(), notification_category_name: "Marketing" }, "No draft found with given draft_id");
    const unknownUser = await sendEmail(project, { user_ids: [stranger], html: "<p>x</p>" });
    expect(unknownUser.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: stranger } });
  });
});

describe("render-email's answer", () => {
  const hexclave = (project: TestProject) => Object.fromEntries(Object.entries(project.headers("admin")).map(([name, value]) => [name.replace(/^x-stack-/, "x-hexclave-"), value]));

  it("gives 2.8.41 the HTML, with the subject and category only when the template sets them", async () => {
    const project = await createTestProject(server);
    const plain = await renderEmail(project, { template_tsx_source: PLAIN_TEMPLATE, theme_tsx_source: "export function EmailTheme({ children }) { return <main>{children}</main>; }" });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ html: `${DOCTYPE}<main><p>Hi</p></main>` });
    const declared = await renderEmail(project, { template_tsx_source: SUBJECT_TEMPLATE, theme_id: DARK });
    expect(Object.keys(declared.body)).toEqual(["html", "subject", "notification_category"]);
    expect(declared.body).toMatchObject({ subject: "Hello", notification_category: "Marketing" });
    expect(await stackSdk(server, project).admin().getEmailPreview({ templateTsxSource: PLAIN_TEMPLATE, themeId: false })).toContain("<p>Hi</p>");
  });

  it("keeps 2.8.108's answer: the plain text too, and the subject always", async () => {
    const project = await createTestProject(server);
    const response = await api(server.url, "/emails/render-email", { method: "POST", headers: hexclave(project), body: { template_tsx_source: PLAIN_TEMPLATE, theme_id: false } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ html: expect.stringContaining("<p>Hi</p>"), text: "Hi", subject: "" });
  });

  it("renders a template without a theme in a bare document", async () => {
    const project = await createTestProject(server);
    const response = await renderEmail(project, { template_tsx_source: PLAIN_TEMPLATE, theme_id: false });
    expect(response.body).toEqual({ html: `${DOCTYPE}<html dir="ltr" lang="en"><head></head><body><p>Hi</p></body></html>` });
  });

  it("refuses an unknown template or theme with the reference's texts", async () => {
    const project = await createTestProject(server);
    for (const [body, text] of [
      [{ template_id: crypto.randomUUID(), theme_id: false }, "No template found with given id"],
      [{ template_tsx_source: PLAIN_TEMPLATE, theme_id: crypto.randomUUID() }, "No theme found with given id"],
    ] as const) {
      const response = await renderEmail(project, body);
      expect(response.status).toBe(400);
      expect(response.text).toBe(text);
    }
  });
});

describe("template edits", () => {
  it("need the project's own email server, and change nothing without one", async () => {
    const project = await createTestProject(server);
    const before = (await as(project, "admin", `/internal/email-templates/${VERIFICATION}`)).body;
    const response = await as(project, "admin", `/internal/email-templates/${VERIFICATION}`, { method: "PATCH", body: { tsx_source: PLAIN_TEMPLATE } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "REQUIRES_CUSTOM_EMAIL_SERVER", error: "This action requires a custom SMTP server. Please edit your email server configuration and try again." });
    await expect(stackSdk(server, project).admin().updateEmailTemplate(VERIFICATION, PLAIN_TEMPLATE, false)).rejects.toMatchObject({ errorCode: "REQUIRES_CUSTOM_EMAIL_SERVER" });
    expect((await as(project, "admin", `/internal/email-templates/${VERIFICATION}`)).body).toEqual(before);
  });
});
