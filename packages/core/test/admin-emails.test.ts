import { describe, expect, it } from "vitest";
import { KnownErrors } from "@latchkey/protocol/errors";
import { startSmtpCapture } from "../../server/test/support/smtp-capture.js";
import { adminAppFor, createTestProject, useLiveServer } from "./support/live-server.js";

// Issue 19: an admin app's themes, templates and drafts, against the real server.
const live = useLiveServer();

const LIGHT = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const DARK = "a0172b5d-cff0-463b-83bb-85124697373a";

/** Points the project's mail at its own SMTP server: templates can be changed only then, as in the protocol. */
async function useOwnEmailServer(project: Awaited<ReturnType<typeof createTestProject>>, port = 2525): Promise<void> {
  const configured = await fetch(`${live.server().url}/api/v1/internal/config/override`, {
    method: "PATCH",
    headers: { ...project.headers("admin"), "content-type": "application/json" },
    body: JSON.stringify({
      config_override_string: JSON.stringify({ "emails.server": { isShared: false, host: "127.0.0.1", port, username: "u", password: "p", senderName: "Mailer", senderEmail: "m@acme.example" } }),
    }),
  });
  expect(configured.status).toBe(200);
}

describe("an admin app's email themes, templates and drafts", () => {
  it("creates, reads, changes and deletes a theme", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    expect(await admin.listEmailThemes()).toEqual([{ id: LIGHT, displayName: "Default Light" }, { id: DARK, displayName: "Default Dark" }]);
    const { id } = await admin.createEmailTheme("Brand");
    const light = await admin.getEmailTheme(LIGHT);
    expect(await admin.getEmailTheme(id)).toEqual({ displayName: "Brand", tsxSource: light.tsxSource });
    expect(await admin.updateEmailTheme(id, { displayName: "Brand 2", tsxSource: "export function EmailTheme({ children }) { return children; }" })).toEqual({ displayName: "Brand 2" });
    expect((await admin.getEmailTheme(id)).tsxSource).toBe("export function EmailTheme({ children }) { return children; }");
    await admin.deleteEmailTheme(id);
    expect((await admin.listEmailThemes()).map((t) => t.id)).toEqual([LIGHT, DARK]);
    await expect(admin.getEmailTheme(id)).rejects.toThrow(/No theme found with given id/);
    await expect(admin.deleteEmailTheme(LIGHT)).rejects.toThrow(/built-in email theme cannot be deleted/);
  });

  it("lists the built-in templates and creates one", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const templates = await admin.listEmailTemplates();
    expect(templates.map((t) => t.displayName)).toEqual(["Email Verification", "Password Reset", "Magic Link/OTP", "Team Invitation", "Sign In Invitation"]);
    expect(templates.every((t) => t.themeId === undefined && t.tsxSource.includes("EmailTemplate"))).toBe(true);
    const { id } = await admin.createEmailTemplate("Digest");
    expect(await admin.getEmailTemplate(id)).toMatchObject({ id, displayName: "Digest" });
  });

  it("deletes a template of its own, but not a built-in one", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const { id } = await admin.createEmailTemplate("Digest");
    await admin.deleteEmailTemplate(id);
    expect((await admin.listEmailTemplates()).map((t) => t.id)).not.toContain(id);
    await expect(admin.getEmailTemplate(id)).rejects.toThrow(/No template found with given id/);
    const [verification] = await admin.listEmailTemplates();
    await expect(admin.deleteEmailTemplate(verification!.id)).rejects.toThrow(/built-in email template cannot be deleted/);
    expect(await admin.listEmailTemplates()).toHaveLength(5);
  });

  it("previews a template and saves one only when it renders, on the project's own email server", async () => {
    const project = await createTestProject(live.server(), "Acme");
    const admin = adminAppFor(live.server(), project);
    const preview = await admin.renderEmailPreview({ templateId: "822687fe-8d0a-4467-a0d1-416b6e639478", themeId: false, variables: { otp: "ABC123" } });
    expect(preview).toMatchObject({ subject: "Sign in to Acme: Your code is ABC123", notificationCategory: "Transactional" });
    expect(preview.html).toContain("ABC123");
    const withoutSubject = await admin.renderEmailPreview({ templateTsxSource: "export function EmailTemplate() { return <p>Hi</p>; }", themeId: false });
    expect(withoutSubject).toEqual({ html: expect.stringContaining('<html dir="ltr" lang="en"><head></head><body><p>Hi</p></body></html>') });

    const source = 'export function EmailTemplate({ user }) { return <p>Dear {user.displayName}</p>; }';
    const { id } = await admin.createEmailTemplate("Note");
    await expect(admin.updateEmailTemplate(id, { tsxSource: source })).rejects.toBeInstanceOf(KnownErrors.RequiresCustomEmailServer);
    await useOwnEmailServer(project);
    const saved = await admin.updateEmailTemplate(id, { tsxSource: source, themeId: DARK });
    expect(saved.renderedHtml).toContain("<p>Dear John Doe</p>");
    expect(await admin.getEmailTemplate(id)).toEqual({ id, displayName: "Note", tsxSource: source, themeId: DARK });
    await expect(admin.updateEmailTemplate(id, { tsxSource: "export const x = <p>;" })).rejects.toBeInstanceOf(KnownErrors.EmailRenderingError);
    expect((await admin.getEmailTemplate(id)).tsxSource).toBe(source);
  });

  it("creates, changes, marks sent and deletes a draft", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const { id } = await admin.createEmailDraft({ displayName: "Launch", themeId: DARK });
    expect(await admin.listEmailDrafts()).toEqual([{ id, displayName: "Launch", tsxSource: expect.stringContaining("EmailTemplate"), themeId: DARK, sentAt: null }]);
    const sentAt = new Date(Date.now() - 1000);
    await admin.updateEmailDraft(id, { themeId: false, tsxSource: "source", sentAt });
    expect(await admin.getEmailDraft(id)).toEqual({ id, displayName: "Launch", tsxSource: "source", themeId: false, sentAt });
    await admin.updateEmailDraft(id, { themeId: null, sentAt: null });
    const reopened = await admin.getEmailDraft(id);
    expect(reopened.themeId).toBeUndefined();
    expect(reopened.sentAt).toBeNull();
    await admin.deleteEmailDraft(id);
    expect(await admin.listEmailDrafts()).toEqual([]);
  });

  it("rejects a draft on a theme the project does not have, and an empty name", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    await expect(admin.createEmailDraft({ displayName: "x", themeId: crypto.randomUUID() })).rejects.toThrow(/No theme found with given id/);
    expect(await admin.listEmailDrafts()).toEqual([]);
    await expect(admin.createEmailDraft({ displayName: "" })).rejects.toBeInstanceOf(KnownErrors.SchemaError);
  });
});

describe("an admin app sending mail", () => {
  it("sends a draft to the chosen users through the project's SMTP server, and marks it sent", async () => {
    const smtp = await startSmtpCapture();
    try {
      const project = await createTestProject(live.server(), "Mailer");
      const admin = adminAppFor(live.server(), project);
      await useOwnEmailServer(project, smtp.port);
      const address = `reader-${crypto.randomUUID()}@example.com`;
      const reader = await admin.createUser({ primaryEmail: address, displayName: "Ada" });
      const { id } = await admin.createEmailDraft({ displayName: "Note", tsxSource: 'export function EmailTemplate({ user }) { return <p>Dear {user.displayName}</p>; }' });

      expect(await admin.sendEmail({ userIds: [reader.id], draftId: id, subject: "A note" })).toEqual([{ userId: reader.id, userEmail: address }]);
      const mail = await smtp.nextMessage(address);
      expect(mail.subject).toBe("A note");
      expect(mail.html).toContain("Dear Ada");
      expect((await admin.getEmailDraft(id)).sentAt).toBeInstanceOf(Date);
    } finally {
      await smtp.close();
    }
  });
});
