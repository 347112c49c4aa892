import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { codeIn, emailProject, linkIn, server, smtp, TRUSTED_ORIGIN, useServerAndSmtpForFile } from "../../server/test/support/email-flow-fixture.js";
import { PASSWORD, clientAppFor, email } from "./support/live-server.js";

/**
 * The inbox flows through the client app, against a real server sending to a real SMTP capture: the
 * test reads each mail and follows its link or types its code, as a person would.
 */
useServerAndSmtpForFile();

async function appOnHandlerPage(page: string) {
  const project = await emailProject();
  return { project, ...clientAppFor(server, project, { page: `${TRUSTED_ORIGIN}/handler/${page}`, urls: { afterSignUp: "/welcome" } }) };
}

describe("email flows of the client app", () => {
  it("verifies the email of a new account with the code of the mailed link", async () => {
    const { app } = await appOnHandlerPage("sign-up");
    const address = email();
    await app.signUpWithCredential({ email: address, password: PASSWORD });
    const link = linkIn(await smtp.nextMessage(address));
    // The link points at the app's email-verification page, made absolute from the current page.
    expect(link.origin + link.pathname).toBe(`${TRUSTED_ORIGIN}/handler/email-verification`);
    expect((await app.getUser())?.primaryEmailVerified).toBe(false);
    await app.verifyEmail(link.searchParams.get("code")!);
    expect((await app.getUser())?.primaryEmailVerified).toBe(true);
    await expect(app.verifyEmail(link.searchParams.get("code")!)).rejects.toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
  });

  it("resets a forgotten password through the mailed link", async () => {
    const { app, project } = await appOnHandlerPage("forgot-password");
    const address = email();
    await app.signUpWithCredential({ email: address, password: PASSWORD, noRedirect: true });
    await smtp.nextMessage(address); // the verification mail
    await app.signOut();

    await app.sendForgotPasswordEmail(address);
    const link = linkIn(await smtp.nextMessage(address));
    expect(link.pathname).toBe("/handler/password-reset");
    const code = link.searchParams.get("code")!;
    await app.verifyPasswordResetCode(code);
    await app.resetPassword({ code, password: "a brand new password" });
    await expect(app.resetPassword({ code, password: "yet another password" })).rejects.toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);

    const { app: fresh } = clientAppFor(server, project);
    await expect(fresh.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true })).rejects.toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    await fresh.signInWithCredential({ email: address, password: "a brand new password", noRedirect: true });
  });

  it("signs up a new person with a magic link (to after-sign-up) and signs them in again with a typed code (to after-sign-in)", async () => {
    const { app, navigations } = await appOnHandlerPage("sign-in");
    const address = email();
    await app.sendMagicLinkEmail(address);
    const link = linkIn(await smtp.nextMessage(address));
    expect(link.pathname).toBe("/handler/magic-link-callback");
    const first = await app.signInWithCode(link.searchParams.get("code")!);
    expect(first.isNewUser).toBe(true);
    expect(navigations.at(-1)).toEqual({ url: "/welcome", replace: true });
    expect((await app.getUser())?.primaryEmail).toBe(address);
    await app.signOut();

    const { nonce } = await app.sendMagicLinkEmail(address);
    const message = await smtp.nextMessage(address);
    const typed = message.subject.match(/([0-9A-Z]{6})$/)![1]!;
    expect(codeIn(message)).toBe(typed.toLowerCase() + nonce);
    const again = await app.signInWithCode(typed + nonce);
    expect(again).toEqual({ userId: first.userId, isNewUser: false });
    expect(navigations.at(-1)).toEqual({ url: "/", replace: true });
  });
});
