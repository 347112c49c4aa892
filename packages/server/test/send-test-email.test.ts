import { createServer as createNetServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_EMAIL_ERRORS, testEmailErrorMessage } from "../src/email/test-email.js";
import { api } from "./support/api.js";
import { closedPort } from "./support/ports.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// `POST /internal/send-test-email` as the reference answers it (issue 29 §5): its plain-text mail, its five failure
// texts, and every attempt in the sent-email log. Real SMTP servers on 127.0.0.1: one that takes mail, one that
// refuses every login, and raw TCP servers that misbehave.
let server: TestServer;
let smtp: SmtpCapture;

beforeAll(async () => {
  [server, smtp] = await Promise.all([startTestServer(), startSmtpCapture()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), smtp?.close()]);
});

const email = () => `person-${crypto.randomUUID()}@example.com`;

describe("POST /internal/send-test-email", () => {
  const config = (port: number, host = "127.0.0.1") => ({ host, port, username: "tester", password: "pw", sender_email: "test-sender@acme.example", sender_name: "Acme Test" });
  const sendTest = (project: TestProject, to: string, port: number) =>
    api(server.url, "/internal/send-test-email", { headers: project.headers("admin"), body: { recipient_email: to, email_config: config(port) } });
  const loggedTests = async (project: TestProject) => (await api(server.url, "/internal/emails", { headers: project.headers("admin") })).body.items;

  it("sends the reference's plain-text test mail, reports success and logs the send", async () => {
    const project = await createTestProject(server);
    const to = email();
    const response = await sendTest(project, to, smtp.port);
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"success":true}');
    const message = await smtp.nextMessage(to);
    expect(message.subject).toBe("Test Email from Stack Auth");
    // The message ends with a line break (nodemailer ends the body with CRLF, as SMTP needs).
    expect(message.text).toBe("This is a test email from Stack Auth. If you successfully received this email, your email server configuration is working correctly.\n");
    expect(message.parsed.html).toBe(false);
    expect(message.from).toEqual({ name: "Acme Test", address: "test-sender@acme.example" });
    expect(message.auth).toEqual({ username: "tester", password: "pw" });
    expect(await loggedTests(project)).toEqual([
      {
        id: expect.any(String),
        subject: "Test Email from Stack Auth",
        sent_at_millis: expect.any(Number),
        to: [to],
        sender_config: { type: "standard", host: "127.0.0.1", port: smtp.port, username: "tester", sender_name: "Acme Test", sender_email: "test-sender@acme.example" },
        error: null,
      },
    ]);
  });

  it("answers a host that refuses with the reference's host text, and logs the SMTP error", async () => {
    const project = await createTestProject(server);
    const to = email();
    const refused = await sendTest(project, to, await closedPort());
    expect(refused.status).toBe(200);
    expect(refused.text).toBe('{"success":false,"error_message":"Failed to connect to the email host. Please make sure the email host configuration is correct."}');
    const [logged] = await loggedTests(project);
    expect(logged).toMatchObject({ subject: "Test Email from Stack Auth", to: [to], error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it("answers a refused login with the reference's authentication text", async () => {
    const refusing = await startSmtpCapture({ rejectAuth: true });
    try {
      const project = await createTestProject(server);
      const badLogin = await sendTest(project, email(), refusing.port);
      expect(badLogin.body).toEqual({ success: false, error_message: "Failed to authenticate with the email server. Please check your email credentials configuration." });
      expect((await loggedTests(project))[0].error).toMatch(/Invalid username or password/);
    } finally {
      await refusing.close();
    }
  });

  it("answers any other failure with the reference's unknown-error text", async () => {
    // A server that greets with a refusal: neither the host, the login nor a timeout is to blame.
    const grumpy = createNetServer((socket) => socket.end("554 No SMTP service here\r\n"));
    await new Promise<void>((resolve) => grumpy.listen(0, "127.0.0.1", () => resolve()));
    try {
      const project = await createTestProject(server);
      const response = await sendTest(project, email(), (grumpy.address() as { port: number }).port);
      expect(response.body).toEqual({ success: false, error_message: "An unknown error occurred while sending the test email." });
    } finally {
      await new Promise((resolve) => grumpy.close(resolve));
    }
  });

  it("gives up after 10 seconds with the reference's text, and logs that", { timeout: 60_000 }, async () => {
    // A server that accepts the connection and never says a word.
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    try {
      const project = await createTestProject(server);
      const started = Date.now();
      const response = await sendTest(project, email(), (silent.address() as { port: number }).port);
      expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
      expect(response.body).toEqual({ success: false, error_message: "Timed out while sending test email. Make sure the email server is running and accepting connections." });
      expect((await loggedTests(project))[0].error).toBe("Timed out while sending test email. Make sure the email server is running and accepting connections.");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("maps a timeout and unknown DNS names to the reference's texts", () => {
    // Neither can be made to happen within the 10 seconds on a test machine: nodemailer's own timeouts are longer
    // there, and name resolution depends on the machine's resolver. These are the errors nodemailer raises for them.
    const nodemailerError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);
    expect(testEmailErrorMessage(nodemailerError("getaddrinfo ENOTFOUND nowhere.invalid", { code: "EDNS", originalCode: "ENOTFOUND" }))).toBe(TEST_EMAIL_ERRORS.host);
    expect(testEmailErrorMessage(nodemailerError("Connection timeout", { code: "ETIMEDOUT" }))).toBe("Timed out. Make sure the email server is running and accepting connections.");
    expect(testEmailErrorMessage(nodemailerError("connect ETIMEDOUT 10.0.0.1:25", { code: "ESOCKET", originalCode: "ETIMEDOUT" }))).toBe(TEST_EMAIL_ERRORS.timeout);
    expect(testEmailErrorMessage(nodemailerError("Invalid login: 535 5.7.8 Error", { code: "EAUTH", responseCode: 535 }))).toBe(TEST_EMAIL_ERRORS.auth);
    expect(testEmailErrorMessage("something else")).toBe(TEST_EMAIL_ERRORS.unknown);
  });

  it("gives @stackframe/js 2.8.41's sendTestEmail the reference's result and error text", async () => {
    const admin = stackSdk(server, await createTestProject(server)).admin();
    const emailConfig = (port: number) => ({ host: "127.0.0.1", port, username: "tester", password: "pw", senderEmail: "test-sender@acme.example", senderName: "Acme Test" });
    const to = email();
    expect(await admin.sendTestEmail({ recipientEmail: to, emailConfig: emailConfig(smtp.port) })).toEqual({ status: "ok", data: undefined });
    expect((await smtp.nextMessage(to)).subject).toBe("Test Email from Stack Auth");
    expect(await admin.sendTestEmail({ recipientEmail: to, emailConfig: emailConfig(await closedPort()) })).toEqual({
      status: "error",
      error: { errorMessage: "Failed to connect to the email host. Please make sure the email host configuration is correct." },
    });
  });

  it("validates the body and needs admin access", async () => {
    const project = await createTestProject(server);
    const invalid = await api(server.url, "/internal/send-test-email", { headers: project.headers("admin"), body: { recipient_email: "not-an-email", email_config: { ...config(70000) } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("SCHEMA_ERROR");
    expect(invalid.body.error).toContain("body.recipient_email");
    expect(invalid.body.error).toContain("body.email_config.port");
    const asClient = await api(server.url, "/internal/send-test-email", { headers: project.headers("client"), body: { recipient_email: email(), email_config: config(smtp.port) } });
    expect(asClient.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});
