import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEND_LIMIT } from "../src/services/verification-codes.js";
import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, email, expectKnownError, expectSchemaError, server, useServerForFile, type Tokens } from "./support/users-fixture.js";
import { closedPort } from "./support/ports.js";

useServerForFile();

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  await smtp?.close();
});

const CALLBACK = "http://localhost:3000/handler/email-verification";
const PASSWORD = "correct horse";

/** A project whose mail goes to the test's SMTP server, as a self-hoster would set it up. */
async function mailingProject(displayName = "Verifying project"): Promise<TestProject> {
  const project = await createTestProject(server, displayName);
  await configureSmtp(project, smtp.port);
  return project;
}

async function configureSmtp(project: TestProject, port: number) {
  await configure(project, {
    "emails.server": { isShared: false, host: "127.0.0.1", port, username: "mailer", password: "secret", senderName: "Mailer", senderEmail: "noreply@acme.example" },
  });
}

async function signUp(project: TestProject, body: Record<string, unknown> = {}): Promise<{ userId: string; email: string; tokens: Tokens }> {
  const address = email();
  const response = await as(project, "client", "/auth/password/sign-up", { body: { email: address, password: PASSWORD, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { userId: response.body.user_id, email: address, tokens: response.body };
}

/** The code of the verification link in a received mail, after checking the link leads to `callback`. */
function codeFromMail(mail: CapturedEmail, callback = CALLBACK): string {
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  expect(link, mail.text).toBeDefined();
  const url = new URL(link!);
  expect(`${url.origin}${url.pathname}`).toBe(callback);
  expect(mail.html).toContain(`href="${link!.replaceAll("&", "&amp;")}"`);
  return url.searchParams.get("code")!;
}

const verify = (project: TestProject, code: string) => as(project, "client", "/contact-channels/verify", { body: { code } });
const me = async (project: TestProject, tokens: Tokens) => (await as(project, "client", "/users/me", { tokens })).body;
const sentTo = async (address: string) => server.db.selectFrom("sent_emails").selectAll().where("recipient", "=", address).execute();
const sendForMyPrimary = (project: TestProject, tokens: Tokens | undefined, body: Record<string, unknown>) =>
  as(project, "client", "/contact-channels/send-verification-code", { body, tokens });

describe("email verification on sign-up", () => {
  it("mails a link; following it verifies the primary email", async () => {
    const project = await mailingProject("Acme");
    const user = await signUp(project, { verification_callback_url: CALLBACK });
    expect((await me(project, user.tokens)).primary_email_verified).toBe(false);

    const mail = await smtp.nextMessage(user.email);
    expect(mail.subject).toBe("Verify your email at Acme");
    expect(mail.from).toEqual({ name: "Acme", address: "noreply@acme.example" });
    const code = codeFromMail(mail);
    expect(code).toHaveLength(45);

    const verified = await verify(project, code);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    const after = await me(project, user.tokens);
    expect(after.primary_email).toBe(user.email);
    expect(after.primary_email_verified).toBe(true);
    // The link works once.
    expectKnownError(await verify(project, code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("sends nothing without a verification_callback_url", async () => {
    const project = await mailingProject();
    const user = await signUp(project);
    expect(await sentTo(user.email)).toEqual([]);
  });

  it("signs the user up even when the mail cannot be delivered, and records the failure", async () => {
    const project = await createTestProject(server);
    await configureSmtp(project, await closedPort());
    const user = await signUp(project, { verification_callback_url: CALLBACK });
    expect((await me(project, user.tokens)).primary_email).toBe(user.email);
    const [record] = await sentTo(user.email);
    expect(record?.error).toEqual(expect.any(String));
  });
});

describe("verifying a channel the user added", () => {
  it("adds an address, verifies it from the mail, makes it primary and signs in with it", async () => {
    const project = await mailingProject();
    const user = await signUp(project);
    const address = email();
    const added = await as(project, "client", "/contact-channels", { body: { user_id: "me", type: "email", value: address, used_for_auth: false }, tokens: user.tokens });
    expect(added.status).toBe(201);

    const sent = await as(project, "client", `/contact-channels/me/${added.body.id}/send-verification-code`, { body: { callback_url: CALLBACK }, tokens: user.tokens });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const code = codeFromMail(await smtp.nextMessage(address));

    // check-code answers without using the code.
    const checked = await as(project, "client", "/contact-channels/verify/check-code", { body: { code } });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ is_code_valid: true });
    expect((await verify(project, code)).status).toBe(200);
    const channel = await as(project, "client", `/contact-channels/me/${added.body.id}`, { tokens: user.tokens });
    expect(channel.body.is_verified).toBe(true);
    expectKnownError(await as(project, "client", "/contact-channels/verify/check-code", { body: { code } }), "VERIFICATION_CODE_ALREADY_USED", 409);

    await as(project, "client", `/contact-channels/me/${added.body.id}`, { method: "PATCH", body: { is_primary: true }, tokens: user.tokens });
    const afterPrimary = await me(project, user.tokens);
    expect(afterPrimary.primary_email).toBe(address);
    expect(afterPrimary.primary_email_verified).toBe(true);

    const usedForAuth = await as(project, "client", `/contact-channels/me/${added.body.id}`, { method: "PATCH", body: { used_for_auth: true }, tokens: user.tokens });
    expect(usedForAuth.body).toMatchObject({ value: address, is_primary: true, is_verified: true, used_for_auth: true });
    const signedIn = await as(project, "client", "/auth/password/sign-in", { body: { email: address, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user_id).toBe(user.userId);
  });

  it("lets a server send the link for any user's channel", async () => {
    const project = await mailingProject();
    const user = await signUp(project);
    const address = email();
    const added = await as(project, "server", "/contact-channels", { body: { user_id: user.userId, type: "email", value: address, used_for_auth: false } });
    const sent = await as(project, "server", `/contact-channels/${user.userId}/${added.body.id}/send-verification-code`, { body: { callback_url: CALLBACK } });
    expect(sent.status).toBe(200);
    expect((await verify(project, codeFromMail(await smtp.nextMessage(address)))).status).toBe(200);
    expect((await as(project, "server", `/contact-channels/${user.userId}/${added.body.id}`)).body.is_verified).toBe(true);
  });

  it("sends the signed-in user's primary email a link at /contact-channels/send-verification-code", async () => {
    const project = await mailingProject();
    const user = await signUp(project);
    const sent = await sendForMyPrimary(project, user.tokens, { email: user.email, callback_url: CALLBACK });
    expect(sent.status).toBe(200);
    expect((await verify(project, codeFromMail(await smtp.nextMessage(user.email)))).status).toBe(200);
    expect((await me(project, user.tokens)).primary_email_verified).toBe(true);
    expectKnownError(await sendForMyPrimary(project, user.tokens, { email: user.email, callback_url: CALLBACK }), "EMAIL_ALREADY_VERIFIED", 409);
  });

  it("leaves the channel unverified when its address changed after the mail was sent", async () => {
    const project = await mailingProject();
    const user = await signUp(project, { verification_callback_url: CALLBACK });
    const code = codeFromMail(await smtp.nextMessage(user.email));
    const channel = (await as(project, "client", "/contact-channels?user_id=me", { tokens: user.tokens })).body.items[0];
    await as(project, "client", `/contact-channels/me/${channel.id}`, { method: "PATCH", body: { value: email() }, tokens: user.tokens });
    const response = await verify(project, code);
    expect(response.status).toBe(400);
    expect(response.text).toBe("Contact channel not found. Was your contact channel deleted?");
    expect((await me(project, user.tokens)).primary_email_verified).toBe(false);
  });
});

describe("verification errors", () => {
  it("accepts an unused second link to a verified channel, and refuses only a reused one", async () => {
    const project = await mailingProject();
    const user = await signUp(project, { verification_callback_url: CALLBACK });
    await sendForMyPrimary(project, user.tokens, { email: user.email, callback_url: CALLBACK });
    const first = codeFromMail(await smtp.nextMessage(user.email));
    const second = codeFromMail(await smtp.nextMessage(user.email));
    expect((await verify(project, second)).status).toBe(200);
    const again = await verify(project, first);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true });
    expect((await me(project, user.tokens)).primary_email_verified).toBe(true);
    const reused = await verify(project, first);
    expectKnownError(reused, "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(reused.body.error).toBe("The verification link has already been used.");
  });

  it("refuses unknown, malformed, expired and other projects' codes", async () => {
    const project = await mailingProject();
    const user = await signUp(project, { verification_callback_url: CALLBACK });
    const code = codeFromMail(await smtp.nextMessage(user.email));

    expectKnownError(await verify(project, "a".repeat(45)), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await verify(await createTestProject(server), code), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectSchemaError(await verify(project, "short"), "body.code must be exactly 45 characters");
    expectSchemaError(await as(project, "client", "/contact-channels/verify", { body: {} }), "body.code must be defined");
    expectSchemaError(await as(project, "client", "/contact-channels/verify", { body: { code, extra: 1 } }), "body contains unknown properties: extra");

    await server.db.updateTable("verification_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("project_id", "=", project.projectId).execute();
    expectKnownError(await verify(project, code), "VERIFICATION_CODE_EXPIRED", 400);
    expect((await me(project, user.tokens)).primary_email_verified).toBe(false);
  });

  it("lets exactly one of 16 racing requests use a code", async () => {
    const project = await mailingProject();
    const user = await signUp(project, { verification_callback_url: CALLBACK });
    const code = codeFromMail(await smtp.nextMessage(user.email));
    const results = await Promise.all(Array.from({ length: 16 }, () => verify(project, code)));
    const outcomes = results.map((r) => (r.status === 200 ? "ok" : r.body.code));
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "VERIFICATION_CODE_ALREADY_USED")).toHaveLength(15);
    expect((await me(project, user.tokens)).primary_email_verified).toBe(true);
  });

  it("refuses callback URLs outside the project's trusted domains before sending anything", async () => {
    const project = await mailingProject();
    await configure(project, { "domains.allowLocalhost": false, "domains.trustedDomains.app": { baseUrl: "https://app.example.com", handlerPath: "/handler" } });
    const user = await signUp(project);
    const channel = (await as(project, "client", "/contact-channels?user_id=me", { tokens: user.tokens })).body.items[0];
    const byId = (callback_url: string) => as(project, "client", `/contact-channels/me/${channel.id}/send-verification-code`, { body: { callback_url }, tokens: user.tokens });
    const byEmail = (callback_url: string) => sendForMyPrimary(project, user.tokens, { email: user.email, callback_url });

    for (const url of [CALLBACK, "https://evil.com/verify", "https://app.example.com.evil.com/verify", "https://evil.com@app.example.com/verify", "//evil.com/verify"]) {
      for (const send of [byId, byEmail]) {
        const response = await send(url);
        expect(response.status, url).toBe(400);
        expect(["REDIRECT_URL_NOT_WHITELISTED", "SCHEMA_ERROR"]).toContain(response.body.code);
      }
    }
    expectKnownError(await byId("https://evil.com/verify"), "REDIRECT_URL_NOT_WHITELISTED", 400);
    expectKnownError(await byEmail("javascript:alert(1)"), "REDIRECT_URL_NOT_WHITELISTED", 400);
    expectSchemaError(await byId("not a url"), "body.callback_url contains spaces");
    expect(await sentTo(user.email)).toEqual([]);

    expect((await byId("https://app.example.com/handler/email-verification")).status).toBe(200);
    codeFromMail(await smtp.nextMessage(user.email), "https://app.example.com/handler/email-verification");
  });

  it("sends only to the signed-in user's primary email", async () => {
    const project = await mailingProject();
    const user = await signUp(project);
    const other = email();
    const response = await sendForMyPrimary(project, user.tokens, { email: other, callback_url: CALLBACK });
    expectKnownError(response, "EMAIL_IS_NOT_PRIMARY_EMAIL", 400);
    expect(response.body.error).toBe(`The given e-mail (${other}) must equal the user's primary e-mail (${user.email}).`);
    expect(response.body.details).toEqual({ email: other, primary_email: user.email });
    const signedOut = await sendForMyPrimary(project, undefined, { email: user.email, callback_url: CALLBACK });
    expectKnownError(signedOut, "SCHEMA_ERROR", 400);
    expect(signedOut.body.error).toBe("Request validation failed on POST /api/v1/contact-channels/send-verification-code:\n  - auth.user must be defined");
    expectSchemaError(await sendForMyPrimary(project, user.tokens, { email: "nope", callback_url: CALLBACK }), "body.email must be a valid email");
    expectSchemaError(await sendForMyPrimary(project, user.tokens, { email: user.email }), "body.callback_url must be defined");
    expect(await sentTo(other)).toEqual([]);
  });

  it("keeps each caller to channels it may send for", async () => {
    const project = await mailingProject();
    const alice = await signUp(project);
    const bob = await signUp(project);
    const bobsChannel = (await as(project, "client", "/contact-channels?user_id=me", { tokens: bob.tokens })).body.items[0];
    const send = (access: "client" | "server", userId: string, channelId: string, tokens?: Tokens) =>
      as(project, access, `/contact-channels/${userId}/${channelId}/send-verification-code`, { body: { callback_url: CALLBACK }, tokens });

    const foreign = await send("client", bob.userId, bobsChannel.id, alice.tokens);
    expect(foreign.status).toBe(400);
    expect(foreign.text).toBe("Can only send verification code for your own user");
    expect((await send("client", "me", bobsChannel.id, alice.tokens)).status).toBe(404);
    expectKnownError(await send("client", "me", bobsChannel.id), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await send("server", crypto.randomUUID(), bobsChannel.id), "USER_NOT_FOUND", 404);
    expect((await send("server", alice.userId, bobsChannel.id)).status).toBe(404);
    expect(await sentTo(bob.email)).toEqual([]);

    await as(project, "server", `/contact-channels/${bob.userId}/${bobsChannel.id}`, { method: "PATCH", body: { is_verified: true } });
    expectKnownError(await send("server", bob.userId, bobsChannel.id), "EMAIL_ALREADY_VERIFIED", 409);
  });

  it(`refuses more than ${SEND_LIMIT} links to one address within the throttling window`, async () => {
    const project = await mailingProject();
    const user = await signUp(project);
    for (let i = 0; i < SEND_LIMIT; i++) expect((await sendForMyPrimary(project, user.tokens, { email: user.email, callback_url: CALLBACK })).status).toBe(200);
    const throttled = await sendForMyPrimary(project, user.tokens, { email: user.email, callback_url: CALLBACK });
    expect(throttled.status).toBe(429);
    expect(await sentTo(user.email)).toHaveLength(SEND_LIMIT);
  });
});

