import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, email, expectKnownError, server, useServerForFile, type Tokens } from "./support/users-fixture.js";

// One server for the file; the verification section starts its own, with an SMTP capture.
useServerForFile();

// Issue 13 §3: `/contact-channels/verify` on an email that is already verified takes an unused code as a
// success; only a code used before is refused (409 VERIFICATION_CODE_ALREADY_USED), as the reference answers.
describe("verifying contact channels", () => {
  const { codeIn, email, emailProject, expectKnownError, getMe, post, signUpWithPassword, useServerAndSmtpForFile } = emailFlow;
  useServerAndSmtpForFile();

  const CALLBACK = "https://app.example.com/handler/email-verification";
  const verify = (project: Parameters<typeof post>[0], code: string) => post(project, "/contact-channels/verify", { code });

  describe("verifying an email that is already verified", () => {
    it("accepts a second, unused link after the first verified the email", async () => {
      const project = await emailProject();
      const address = email();
      const user = await signUpWithPassword(project, address, "correct horse");
      for (let i = 0; i < 2; i++) expect((await post(project, "/contact-channels/send-verification-code", { email: address, callback_url: CALLBACK }, { tokens: user })).status).toBe(200);
      const first = codeIn(await emailFlow.smtp.nextMessage(address));
      const second = codeIn(await emailFlow.smtp.nextMessage(address));

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
      const code = codeIn(await emailFlow.smtp.nextMessage(address));
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
      const channel = (await api(emailFlow.server.url, "/contact-channels?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": user.access_token } })).body.items[0];
      expect((await post(project, `/contact-channels/me/${channel.id}/send-verification-code`, { callback_url: CALLBACK }, { tokens: user })).status).toBe(200);
      const code = codeIn(await emailFlow.smtp.nextMessage(address));
      const marked = await api(emailFlow.server.url, `/contact-channels/${user.user_id}/${channel.id}`, { method: "PATCH", headers: project.headers("server"), body: { is_verified: true } });
      expect(marked.body.is_verified).toBe(true);

      expect((await verify(project, code)).status).toBe(200);
      expectKnownError(await verify(project, code), "VERIFICATION_CODE_ALREADY_USED", 409);
    });

    it("is a success for the published SDK's verifyEmail, and a reuse its VerificationCodeAlreadyUsed", async () => {
      const project = await emailProject();
      const address = email();
      const user = await signUpWithPassword(project, address, "correct horse");
      for (let i = 0; i < 2; i++) await post(project, "/contact-channels/send-verification-code", { email: address, callback_url: CALLBACK }, { tokens: user });
      const first = codeIn(await emailFlow.smtp.nextMessage(address));
      const second = codeIn(await emailFlow.smtp.nextMessage(address));
      const app = stackSdk(emailFlow.server, project).client();
      expect((await app.verifyEmail(first)).status).toBe("ok");
      expect((await app.verifyEmail(second)).status).toBe("ok");
      const reused = await app.verifyEmail(second);
      expect(reused.status === "error" && reused.error.errorCode).toBe("VERIFICATION_CODE_ALREADY_USED");
    });
  });
});

// Issue 13 §1 and §3: the contact-channel answers a client written against the reference sees, word for word.
describe("contact-channel errors", () => {
  async function signUp(project: TestProject, address = email()): Promise<{ userId: string; email: string; tokens: Tokens }> {
    const response = await as(project, "client", "/auth/password/sign-up", { body: { email: address, password: "correct horse" } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { userId: response.body.user_id, email: address, tokens: response.body };
  }

  const addMine = (project: TestProject, tokens: Tokens, body: Record<string, unknown>) =>
    as(project, "client", "/contact-channels", { body: { user_id: "me", type: "email", used_for_auth: false, ...body }, tokens });
  const channelsOf = async (project: TestProject, userId: string) =>
    (await as(project, "server", `/contact-channels?user_id=${userId}`)).body.items as Array<{ id: string; value: string }>;

  function expectPlainText(response: { status: number; text: string; headers: Headers }, status: number, text: string) {
    expect(response.status).toBe(status);
    expect(response.text).toBe(text);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.headers.get("x-stack-known-error")).toBeNull();
  }

  describe("the legacy POST /contact-channels/send-verification-code", () => {
    const body = (address: string) => ({ email: address, callback_url: "http://localhost:3000/handler/email-verification" });

    it("answers a request without a signed-in user as a schema error, as its request schema requires the user", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      for (const access of ["client", "server", "admin"] as const) {
        const response = await as(project, access, "/contact-channels/send-verification-code", { body: body(user.email) });
        expectKnownError(response, "SCHEMA_ERROR", 400);
        const message = "Request validation failed on POST /api/v1/contact-channels/send-verification-code:\n  - auth.user must be defined";
        expect(response.body.error).toBe(message);
        expect(response.body.details).toEqual({ message });
      }
    });

    it("names the same path under /api/latest", async () => {
      const project = await createTestProject(server);
      const response = await fetch(`${server.url}/api/latest/contact-channels/send-verification-code`, {
        method: "POST",
        headers: { ...project.headers("client"), "content-type": "application/json" },
        body: JSON.stringify(body(email())),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe("Request validation failed on POST /api/latest/contact-channels/send-verification-code:\n  - auth.user must be defined");
    });

    it("still sends for a signed-in user", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const response = await as(project, "client", "/contact-channels/send-verification-code", { body: body(user.email), tokens: user.tokens });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
    });
  });

  describe("a missing contact channel", () => {
    it("is a plain 400 `Contact channel not found` on DELETE, for clients and servers", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const missing = crypto.randomUUID();
      expectPlainText(await as(project, "client", `/contact-channels/me/${missing}`, { method: "DELETE", tokens: user.tokens }), 400, "Contact channel not found");
      expectPlainText(await as(project, "server", `/contact-channels/${user.userId}/${missing}`, { method: "DELETE" }), 400, "Contact channel not found");
      // Deleting twice: the second finds nothing.
      const [channel] = await channelsOf(project, user.userId);
      expect((await as(project, "server", `/contact-channels/${user.userId}/${channel!.id}`, { method: "DELETE" })).status).toBe(200);
      expectPlainText(await as(project, "server", `/contact-channels/${user.userId}/${channel!.id}`, { method: "DELETE" }), 400, "Contact channel not found");
    });

    it("is the same plain 400 on PATCH, and a 404 on read", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const missing = crypto.randomUUID();
      expectPlainText(await as(project, "client", `/contact-channels/me/${missing}`, { method: "PATCH", body: { is_primary: true }, tokens: user.tokens }), 400, "Contact channel not found");
      expectPlainText(await as(project, "client", `/contact-channels/me/${missing}`, { tokens: user.tokens }), 404, "Contact channel not found.");
    });
  });

  describe("a duplicate contact channel of one user", () => {
    it("is a plain 400 `Contact channel already exists`, for clients and servers", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const address = email();
      expect((await addMine(project, user.tokens, { value: address })).status).toBe(201);
      expectPlainText(await addMine(project, user.tokens, { value: address }), 400, "Contact channel already exists");
      const byServer = await as(project, "server", "/contact-channels", { body: { user_id: user.userId, type: "email", value: address, used_for_auth: false, is_verified: true } });
      expectPlainText(byServer, 400, "Contact channel already exists");
      expect((await channelsOf(project, user.userId)).filter((c) => c.value === address)).toHaveLength(1);
    });

    it("is checked before the used-for-auth conflict: re-adding one's own sign-in email is a duplicate", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      // The sign-up email is the user's own sign-in channel; adding it again for sign-in is not "someone else's".
      expectPlainText(await addMine(project, user.tokens, { value: user.email, used_for_auth: true }), 400, "Contact channel already exists");
      expectPlainText(await addMine(project, user.tokens, { value: user.email, used_for_auth: false }), 400, "Contact channel already exists");
    });

    it("wins over the used-for-auth conflict when both apply", async () => {
      const project = await createTestProject(server);
      const alice = await signUp(project);
      const bob = await signUp(project);
      // Bob keeps Alice's address as a plain contact; adding it again, for sign-in, is first of all a duplicate.
      expect((await addMine(project, bob.tokens, { value: alice.email })).status).toBe(201);
      expectPlainText(await addMine(project, bob.tokens, { value: alice.email, used_for_auth: true }), 400, "Contact channel already exists");
      // Without the duplicate, the conflict is reported as before.
      const carol = await signUp(project);
      expectKnownError(await addMine(project, carol.tokens, { value: alice.email, used_for_auth: true }), "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", 409);
    });

    it("is refused the same way when an update would give a channel another channel's value", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const other = await addMine(project, user.tokens, { value: email() });
      const response = await as(project, "client", `/contact-channels/me/${other.body.id}`, { method: "PATCH", body: { value: user.email, used_for_auth: true }, tokens: user.tokens });
      expectPlainText(response, 400, "Contact channel already exists");
    });

    it("is not a duplicate for another user of the project", async () => {
      const project = await createTestProject(server);
      const alice = await signUp(project);
      const bob = await signUp(project);
      const shared = email();
      expect((await addMine(project, alice.tokens, { value: shared })).status).toBe(201);
      expect((await addMine(project, bob.tokens, { value: shared })).status).toBe(201);
    });
  });

  describe("declared shapes", () => {
    it("answers a channel with exactly the protocol's fields", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const created = await addMine(project, user.tokens, { value: email() });
      expect(Object.keys(created.body).sort()).toEqual(["id", "is_primary", "is_verified", "type", "used_for_auth", "user_id", "value"]);
      const list = await api(server.url, "/contact-channels?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": user.tokens.access_token } });
      expect(Object.keys(list.body).sort()).toEqual(["is_paginated", "items"]);
    });
  });
});
