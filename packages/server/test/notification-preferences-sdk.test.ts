import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, managing notification categories and
// sending mail against Latchkey over a real socket, with the mail received by a real SMTP server.
let server: TestServer;
let smtp: SmtpCapture;
let project: TestProject;

beforeAll(async () => {
  [server, smtp] = await Promise.all([startTestServer(), startSmtpCapture()]);
  project = await createTestProject(server, "SDK Mail");
  const emailServer = { isShared: false, host: smtp.host, port: smtp.port, username: "mailer", password: "secret", senderName: "SDK Mail", senderEmail: "news@sdk.example" };
  const response = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: { config_override_string: JSON.stringify({ "emails.server": emailServer }) },
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await Promise.all([server?.close(), smtp?.close()]);
});


describe("notification categories through the published Stack SDK", () => {
  it("lists the categories and turns marketing off for the signed-in user; transactional stays on", async () => {
    const app = stackSdk(server, project).client();
    const email = `sdk-${crypto.randomUUID()}@example.com`;
    expect((await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });

    const categories = await user.listNotificationCategories();
    expect(categories.map(({ id, name, enabled, canDisable }) => ({ id, name, enabled, canDisable }))).toEqual([
      { id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef", name: "Transactional", enabled: true, canDisable: false },
      { id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", name: "Marketing", enabled: true, canDisable: true },
    ]);
    await categories[1]!.setEnabled(false);
    expect((await user.listNotificationCategories()).map((c) => c.enabled)).toEqual([true, false]);
    await expect(categories[0]!.setEnabled(false)).rejects.toThrow(/cannot be disabled/);
    expect((await user.listNotificationCategories()).map((c) => c.enabled)).toEqual([true, false]);
  });

  it("sends marketing mail with sendEmail, skipping a user who turned it off from the server side", async () => {
    const serverApp = stackSdk(server, project).server();
    const [keen, tired] = await Promise.all(
      ["keen", "tired"].map((name) => serverApp.createUser({ primaryEmail: `${name}-${crypto.randomUUID()}@example.com` })),
    );
    const tiredMarketing = (await tired!.listNotificationCategories()).find((c) => c.name === "Marketing")!;
    await tiredMarketing.setEnabled(false);

    await serverApp.sendEmail({ userIds: [keen!.id, tired!.id], subject: "Launch week", html: "<p>We launched!</p>", notificationCategoryName: "Marketing" });
    const message = await smtp.nextMessage(keen!.primaryEmail!);
    expect(message.subject).toBe("Launch week");
    expect(message.text).toContain("We launched!");
    expect(message.text).toMatch(/\/api\/v1\/emails\/unsubscribe-link\?code=/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.some((m) => m.to.includes(tired!.primaryEmail!.toLowerCase()))).toBe(false);
  });
});
