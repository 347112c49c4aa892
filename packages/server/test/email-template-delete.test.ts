import { describe, expect, it } from "vitest";
import { BUILT_IN_EMAIL_TEMPLATES, EMAIL_VERIFICATION_TEMPLATE_ID } from "../src/email/built-in-templates.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, server, useServerForFile } from "./support/users-fixture.js";

// Latchkey's addition to /internal/email-templates: DELETE removes a project's own template (the reference has
// no such route); the built-in ones, which the transactional mails use, stay, as the built-in themes do.
useServerForFile();

async function createTemplate(project: TestProject, displayName: string): Promise<string> {
  const created = await as(project, "admin", "/internal/email-templates", { method: "POST", body: { display_name: displayName } });
  expect(created.status, created.text).toBe(200);
  return created.body.id;
}

const templateIds = async (project: TestProject): Promise<string[]> =>
  (await as(project, "admin", "/internal/email-templates")).body.templates.map((t: { id: string }) => t.id);

describe("DELETE /internal/email-templates/{id}", () => {
  it("deletes a project's own template: gone from the list, the read, the config and rendering", async () => {
    const project = await createTestProject(server);
    const kept = await createTemplate(project, "Kept");
    const id = await createTemplate(project, "Weekly digest");

    const deleted = await as(project, "admin", `/internal/email-templates/${id}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ success: true });

    const read = await as(project, "admin", `/internal/email-templates/${id}`);
    expect(read.status).toBe(404);
    expect(read.text).toBe("No template found with given id");
    expect(await templateIds(project)).toEqual([...Object.keys(BUILT_IN_EMAIL_TEMPLATES), kept]);
    const config = JSON.parse((await as(project, "admin", "/internal/config")).body.config_string);
    expect(Object.keys(config.emails.templates)).not.toContain(id);

    const render = await as(project, "admin", "/emails/render-email", { method: "POST", body: { template_id: id } });
    expect(render.status).toBe(400);
    expect(render.text).toBe("No template found with given id");

    const again = await as(project, "admin", `/internal/email-templates/${id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.text).toBe("No template found with given id");
  });

  it("takes the id in capitals too", async () => {
    const project = await createTestProject(server);
    const id = await createTemplate(project, "Shouted");
    expect((await as(project, "admin", `/internal/email-templates/${id.toUpperCase()}`, { method: "DELETE" })).status).toBe(200);
    expect(await templateIds(project)).not.toContain(id);
  });

  it("refuses to delete a built-in template, changed by the project or not, and keeps it", async () => {
    const project = await createTestProject(server);
    // Templates are changed only on the project's own email server, as in the protocol.
    await configure(project, { "emails.server": { isShared: false, host: "127.0.0.1", port: 2525, username: "u", password: "p", senderName: "Acme", senderEmail: "mail@acme.example" } });
    const source = (await as(project, "admin", `/internal/email-templates/${EMAIL_VERIFICATION_TEMPLATE_ID}`)).body.tsx_source;
    const renamed = await as(project, "admin", `/internal/email-templates/${EMAIL_VERIFICATION_TEMPLATE_ID}`, {
      method: "PATCH",
      body: { display_name: "Confirm your address" },
    });
    expect(renamed.status, renamed.text).toBe(200);

    for (const id of Object.keys(BUILT_IN_EMAIL_TEMPLATES)) {
      const refused = await as(project, "admin", `/internal/email-templates/${id}`, { method: "DELETE" });
      expect(refused.status, id).toBe(400);
      expect(refused.text).toBe("A built-in email template cannot be deleted");
    }
    expect(await templateIds(project)).toEqual(Object.keys(BUILT_IN_EMAIL_TEMPLATES));
    const verification = (await as(project, "admin", `/internal/email-templates/${EMAIL_VERIFICATION_TEMPLATE_ID}`)).body;
    expect(verification).toMatchObject({ display_name: "Confirm your address", tsx_source: source });
  });

  it("answers 404 for an unknown id and a schema error for a malformed one", async () => {
    const project = await createTestProject(server);
    const unknown = await as(project, "admin", `/internal/email-templates/${crypto.randomUUID()}`, { method: "DELETE" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe("No template found with given id");
    const malformed = await as(project, "admin", "/internal/email-templates/not-a-uuid", { method: "DELETE" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("SCHEMA_ERROR");
  });

  it("is for admins of the template's own project only", async () => {
    const mine = await createTestProject(server);
    const theirs = await createTestProject(server);
    const id = await createTemplate(mine, "Mine");
    for (const access of ["client", "server"] as const) {
      const refused = await as(mine, access, `/internal/email-templates/${id}`, { method: "DELETE" });
      expect(refused.status, access).toBe(401);
      expect(refused.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    const elsewhere = await as(theirs, "admin", `/internal/email-templates/${id}`, { method: "DELETE" });
    expect(elsewhere.status).toBe(404);
    expect(await templateIds(mine)).toContain(id);
  });
});
