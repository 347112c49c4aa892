import { describe, expect, it } from "vitest";
import {
  codeIn,
  email,
  emailProject,
  linkIn,
  MAGIC_LINK_CALLBACK,
  RESET_CALLBACK,
  server,
  signUpWithPassword,
  smtp,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, through the inbox flows: what it sends
// and how it reads our answers (the nonce, the typed OTP + nonce, the known errors it catches).
useServerAndSmtpForFile();

const clientApp = (project: TestProject) => stackSdk(server, project).client();

describe("the published Stack SDK through the inbox flows", () => {
  it("signs up with a magic link, then signs in with the typed code plus the nonce it was given", async () => {
    const project = await emailProject();
    const address = email();
    const app = clientApp(project);
    const sent = await app.sendMagicLinkEmail(address, { callbackUrl: MAGIC_LINK_CALLBACK });
    expect(sent.status).toBe("ok");
    const signedUp = await app.signInWithMagicLink(codeIn(await smtp.nextMessage(address)), { noRedirect: true });
    expect(signedUp.status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe(address);
    expect(user.primaryEmailVerified).toBe(true);
    await user.signOut();

    const again = await app.sendMagicLinkEmail(address, { callbackUrl: MAGIC_LINK_CALLBACK });
    if (again.status !== "ok") throw again.error;
    const otp = (await smtp.nextMessage(address)).subject.slice(-6);
    const typed = await app.signInWithMagicLink(otp + again.data.nonce, { noRedirect: true });
    expect(typed.status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("gets the protocol's known errors back as typed results", async () => {
    const project = await emailProject({ "domains.allowLocalhost": false });
    const app = clientApp(project);
    const untrusted = await app.sendMagicLinkEmail(email(), { callbackUrl: "https://evil.example/handler/magic-link-callback" });
    expect(untrusted.status === "error" && untrusted.error.errorCode).toBe("REDIRECT_URL_NOT_WHITELISTED");
    const bad = await app.signInWithMagicLink("0".repeat(45), { noRedirect: true });
    expect(bad.status === "error" && bad.error.errorCode).toBe("VERIFICATION_CODE_NOT_FOUND");
    const badReset = await app.verifyPasswordResetCode("0".repeat(45));
    expect(badReset.status === "error" && badReset.error.errorCode).toBe("VERIFICATION_CODE_NOT_FOUND");
  });

  it("resets a forgotten password", async () => {
    const project = await emailProject();
    const address = email();
    await signUpWithPassword(project, address, "the-old-password");
    const app = clientApp(project);
    expect((await app.sendForgotPasswordEmail(address, { callbackUrl: RESET_CALLBACK })).status).toBe("ok");
    const code = codeIn(await smtp.nextMessage(address));
    expect((await app.verifyPasswordResetCode(code)).status).toBe("ok");
    expect((await app.resetPassword({ code, password: "the-new-password" })).status).toBe("ok");
    expect((await app.signInWithCredential({ email: address, password: "the-new-password", noRedirect: true })).status).toBe("ok");
  });

  it("sends a sign-in invitation as an admin", async () => {
    const project = await emailProject();
    const admin = stackSdk(server, project).admin();
    const address = email();
    await admin.sendSignInInvitationEmail(address, "https://app.example.com/handler/sign-in");
    expect(linkIn(await smtp.nextMessage(address)).toString()).toBe("https://app.example.com/handler/sign-in");
  });
});
