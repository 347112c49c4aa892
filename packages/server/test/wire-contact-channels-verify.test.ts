import { describe, expect, it } from "vitest";
import {
  codeIn,
  email,
  emailProject,
  expectKnownError,
  getMe,
  post,
  server,
  signUpWithPassword,
  smtp,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import { api } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";

// Issue 13 §3: `/contact-channels/verify` on an email that is already verified takes an unused code as a
// success; only a code used before is refused (409 VERIFICATION_CODE_ALREADY_USED), as the reference answers.
useServerAndSmtpForFile();

const CALLBACK = "https://app.example.com/handler/email-verification";
const verify = (project: Parameters<typeof post>[0], code: string) => post(project, "/contact-channels/verify", { code });

describe("verifying an email that is already verified", () => {
  it("accepts a second, unused link after the first verified the email", async () => {
    const project = await emailProject();
    const address = email();
    const user = await signUpWithPassword(project, address, "correct horse");
    for (let i = 0; i < 2; i++) expect((await post(project, "/contact-channels/send-verification-code", { email: address, callback_url: CALLBACK }, { tokens: user })).status).toBe(200);
    const first = codeIn(await smtp.nextMessage(address));
    const second = codeIn(await smtp.nextMessage(address));

    const verified = await verify(project, first);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect((await getMe(project, user)).body.primary_email_verified).toBe(true);

    // check-code still finds the second code usable…
    const checked = await post(project, "/contact-channels/verify/check-code", { code: second });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ is_code_valid: true });
    // …and using it succeeds, leaving the email verified.
    const again = await verify(project, second);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true });
    expect((await getMe(project, user)).body.primary_email_verified).toBe(true);
  });

  it("refuses only a reused code, with VERIFICATION_CODE_ALREADY_USED", async () => {
    const project = await emailProject();
    const address = email();
    const user = await signUpWithPassword(project, address, "correct horse");
    await post(project, "/contact-channels/send-verification-code", { email: address, callback_url: CALLBACK }, { tokens: user });
    const code = codeIn(await smtp.nextMessage(address));
    expect((await verify(project, code)).status).toBe(200);
    const reused = await verify(project, code);
    expectKnownError(reused, "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(reused.body.error).toBe("The verification link has already been used.");
    expect(reused.headers.get("x-stack-known-error")).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("accepts an unused link for a channel a server marked verified meanwhile", async () => {
    const project = await emailProject();
    const address = email();
    const user = await signUpWithPassword(project, address, "correct horse");
    const channel = (await api(server.url, "/contact-channels?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": user.access_token } })).body.items[0];
    expect((await post(project, `/contact-channels/me/${channel.id}/send-verification-code`, { callback_url: CALLBACK }, { tokens: user })).status).toBe(200);
    const code = codeIn(await smtp.nextMessage(address));
    const marked = await api(server.url, `/contact-channels/${user.user_id}/${channel.id}`, { method: "PATCH", headers: project.headers("server"), body: { is_verified: true } });
    expect(marked.body.is_verified).toBe(true);

    expect((await verify(project, code)).status).toBe(200);
    expectKnownError(await verify(project, code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("is a success for the published SDK's verifyEmail, and a reuse its VerificationCodeAlreadyUsed", async () => {
    const project = await emailProject();
    const address = email();
    const user = await signUpWithPassword(project, address, "correct horse");
    for (let i = 0; i < 2; i++) await post(project, "/contact-channels/send-verification-code", { email: address, callback_url: CALLBACK }, { tokens: user });
    const first = codeIn(await smtp.nextMessage(address));
    const second = codeIn(await smtp.nextMessage(address));
    const app = stackSdk(server, project).client();
    expect((await app.verifyEmail(first)).status).toBe("ok");
    expect((await app.verifyEmail(second)).status).toBe("ok");
    const reused = await app.verifyEmail(second);
    expect(reused.status === "error" && reused.error.errorCode).toBe("VERIFICATION_CODE_ALREADY_USED");
  });
});
