import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { email, emailProject, expectKnownError, expectNoMailTo, linkIn, post, server, smtp, useServerAndSmtpForFile } from "./support/email-flow-fixture.js";

useServerAndSmtpForFile();

const SIGN_IN_PAGE = "https://app.example.com/handler/sign-in";

describe("POST /internal/send-sign-in-invitation", () => {
  it("mails an invitation whose link is the callback URL, and records the send", async () => {
    const project = await emailProject();
    const address = email();
    const response = await post(project, "/internal/send-sign-in-invitation", { email: address, callback_url: SIGN_IN_PAGE }, { access: "admin" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ success: true });

    const message = await smtp.nextMessage(address);
    expect(message.subject).toBe("You have been invited to sign in to Mail Flows");
    expect(message.from).toEqual({ name: "Mail Flows", address: "noreply@flows.example" });
    expect(linkIn(message).toString()).toBe(SIGN_IN_PAGE);
    expect(message.html).toContain(`href="${SIGN_IN_PAGE}"`);

    const listed = await api(server.url, "/internal/emails", { headers: project.headers("admin") });
    expect(listed.body.items).toEqual([expect.objectContaining({ to: [address], subject: message.subject })]);
  });

  it("is for admins only", async () => {
    const project = await emailProject();
    for (const access of ["client", "server"] as const) {
      const address = email();
      const response = await post(project, "/internal/send-sign-in-invitation", { email: address, callback_url: SIGN_IN_PAGE }, { access });
      expectKnownError(response, "INSUFFICIENT_ACCESS_TYPE", 401);
      await expectNoMailTo(address, 0);
    }
  });

  it("refuses an untrusted callback URL and a malformed body", async () => {
    const project = await emailProject();
    const address = email();
    expectKnownError(
      await post(project, "/internal/send-sign-in-invitation", { email: address, callback_url: "https://evil.example/sign-in" }, { access: "admin" }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    const missing = await post(project, "/internal/send-sign-in-invitation", { email: address }, { access: "admin" });
    expectKnownError(missing, "SCHEMA_ERROR", 400);
    expect(missing.body.error).toContain("body.callback_url must be defined");
    const badEmail = await post(project, "/internal/send-sign-in-invitation", { email: "nope", callback_url: SIGN_IN_PAGE }, { access: "admin" });
    expect(badEmail.body.error).toContain("body.email must be a valid email");
    await expectNoMailTo(address);
  });
});
