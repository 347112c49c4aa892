import { describe, expect, it } from "vitest";
import { startSmtpCapture } from "../../server/test/support/smtp-capture.js";
import { freePort } from "../../server/test/support/ports.js";
import { adminAppFor, createTestProject, useLiveServer } from "./support/live-server.js";

// Issue 20: the calls behind the dashboard's email server settings and sent log, against the real server.
const live = useLiveServer();

const server = (port: number) => ({ host: "127.0.0.1", port, username: "mailer", password: "secret", senderName: "Acme", senderEmail: "mail@acme.example" });

describe("an admin app's email server and sent log", () => {
  it("sends a test email through an SMTP server, and reports the server's error when it refuses", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server()));
    const accepting = await startSmtpCapture();
    const refusing = await startSmtpCapture({ rejectAuth: true });
    try {
      const address = `admin-${crypto.randomUUID()}@example.com`;
      expect(await admin.sendTestEmail(address, server(accepting.port))).toEqual({ success: true });
      const mail = await accepting.nextMessage(address);
      expect(mail.subject).toBe("Test Email from Stack Auth");
      expect(mail.auth).toEqual({ username: "mailer", password: "secret" });

      const refused = await admin.sendTestEmail(address, server(refusing.port));
      expect(refused.success).toBe(false);
      expect(!refused.success && refused.errorMessage).toBe("Failed to authenticate with the email server. Please check your email credentials configuration.");

      const closed = await admin.sendTestEmail(address, server(await freePort()));
      expect(closed.success).toBe(false);
    } finally {
      await Promise.all([accepting.close(), refusing.close()]);
    }
  });

  it("lists the mail the project sent, newest first, with the server it went through", async () => {
    const admin = adminAppFor(live.server(), await createTestProject(live.server(), "Logbook"));
    expect(await admin.listSentEmails()).toEqual([]);
    const smtp = await startSmtpCapture();
    try {
      await admin.updateAdminProject({ config: { email_config: { type: "standard", ...wire(server(smtp.port)) } } });
      const address = `reader-${crypto.randomUUID()}@example.com`;
      const reader = await admin.createUser({ primaryEmail: address });
      await admin.sendEmail({ userIds: [reader.id], subject: "First", html: "<p>1</p>" });
      await admin.sendEmail({ userIds: [reader.id], subject: "Second", html: "<p>2</p>" });
      await smtp.nextMessage(address);
      await smtp.nextMessage(address);
      const sent = await admin.listSentEmails();
      expect(sent.map((mail) => mail.subject)).toEqual(["Second", "First"]);
      expect(sent[0]).toMatchObject({ to: [address], error: null, sender: { type: "standard", host: "127.0.0.1", port: smtp.port, username: "mailer", senderEmail: "mail@acme.example" } });
      expect(sent[0]!.sentAt).toBeInstanceOf(Date);
      expect(sent[0]!.sender).not.toHaveProperty("password");
    } finally {
      await smtp.close();
    }
  });
});

function wire(config: ReturnType<typeof server>) {
  return { host: config.host, port: config.port, username: config.username, password: config.password, sender_name: config.senderName, sender_email: config.senderEmail };
}
