import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, managing contact channels and
// verifying emails against Latchkey, with the mail read from a real SMTP server.
let server: TestServer;
let smtp: SmtpCapture;
let project: TestProject;
beforeAll(async () => {
  [server, smtp] = await Promise.all([startTestServer(), startSmtpCapture()]);
  project = await createTestProject(server, "SDK channels");
  const configured = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: {
      config_override_string: JSON.stringify({
        "emails.server": { isShared: false, host: "127.0.0.1", port: smtp.port, username: "mailer", password: "secret", senderName: "Mailer", senderEmail: "noreply@acme.example" },
      }),
    },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await Promise.all([server?.close(), smtp?.close()]);
});

const callbackUrl = "http://localhost:3000/handler/email-verification";
const clientApp = () => stackSdk(server, project).client();
const serverApp = () => stackSdk(server, project).server();
const address = () => `sdk-${crypto.randomUUID()}@example.com`;

async function codeFor(to: string): Promise<string> {
  const mail = await smtp.nextMessage(to);
  const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
  expect(`${link.origin}${link.pathname}`).toBe(callbackUrl);
  return link.searchParams.get("code")!;
}

describe("the published Stack SDK with contact channels", () => {
  it("verifies the sign-up email from the mailed link", async () => {
    const app = clientApp();
    const email = address();
    expect((await app.signUpWithCredential({ email, password: "correct horse", noRedirect: true, verificationCallbackUrl: callbackUrl })).status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).primaryEmailVerified).toBe(false);

    const result = await app.verifyEmail(await codeFor(email));
    expect(result.status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmailVerified).toBe(true);
    // The SDK returns, rather than throws, the protocol's error for an already verified email.
    // @ts-expect-error the SDK's type has no options, but outside a browser it needs `callbackUrl` and reads it
    const again = await user.sendVerificationEmail({ callbackUrl });
    expect(again?.errorCode).toBe("EMAIL_ALREADY_VERIFIED");

    const reused = await app.verifyEmail("0".repeat(45));
    expect(reused.status === "error" && reused.error.errorCode).toBe("VERIFICATION_CODE_NOT_FOUND");
  });

  it("adds a channel, verifies it, makes it the primary sign-in email and signs in with it", async () => {
    const app = clientApp();
    const email = address();
    expect((await app.signUpWithCredential({ email, password: "correct horse", noRedirect: true, verificationCallbackUrl: callbackUrl })).status).toBe("ok");
    await smtp.nextMessage(email);
    const user = await app.getUser({ or: "throw" });

    const second = address();
    const channel = await user.createContactChannel({ type: "email", value: second, usedForAuth: false });
    expect(channel).toMatchObject({ type: "email", value: second, isVerified: false, isPrimary: false, usedForAuth: false });
    await channel.sendVerificationEmail({ callbackUrl });
    expect((await app.verifyEmail(await codeFor(second))).status).toBe("ok");

    const listed = await user.listContactChannels();
    expect(listed.map((c) => [c.value, c.isVerified, c.isPrimary]).sort()).toEqual([[email, false, true], [second, true, false]].sort());
    await listed.find((c) => c.value === second)!.update({ isPrimary: true, usedForAuth: true });
    const updated = await app.getUser({ or: "throw" });
    expect(updated.primaryEmail).toBe(second);
    expect(updated.primaryEmailVerified).toBe(true);

    const other = clientApp();
    expect((await other.signInWithCredential({ email: second, password: "correct horse", noRedirect: true })).status).toBe("ok");
    expect((await other.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("lets a server manage any user's channels", async () => {
    const app = serverApp();
    const user = await app.createUser({ primaryEmail: address() });
    const value = address();
    const channel = await user.createContactChannel({ type: "email", value, isVerified: true, usedForAuth: false });
    expect(channel).toMatchObject({ value, isVerified: true, isPrimary: false });
    await channel.update({ isPrimary: true });
    expect((await app.getUser(user.id))!.primaryEmail).toBe(value);
    await channel.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).not.toContain(value);
  });
});
