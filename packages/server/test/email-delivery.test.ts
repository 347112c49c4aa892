import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEmail } from "../src/email/send.js";
import { codeLink, DEFAULT_EMAIL_TEMPLATES } from "../src/email/templates.js";
import { renderTransactionalEmail } from "../src/services/transactional-email.js";
import { createLogger } from "../src/log.js";
import { getProject } from "../src/services/projects.js";
import { api } from "./support/api.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { closedPort } from "./support/ports.js";

let server: TestServer;
let smtp: SmtpCapture;

beforeAll(async () => {
  [server, smtp] = await Promise.all([startTestServer(), startSmtpCapture()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), smtp?.close()]);
});

const email = () => `person-${crypto.randomUUID()}@example.com`;
const deps = (log = createLogger("silent")) => ({ db: server.db, env: server.env, log });

async function configureEmail(project: TestProject, emailServer: Record<string, unknown>) {
  const response = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: { config_override_string: JSON.stringify({ "emails.server": emailServer }) },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

const standardConfig = (port: number) => ({
  isShared: false,
  host: "127.0.0.1",
  port,
  username: "mailer",
  password: "mailer-password",
  senderName: "Configured sender",
  senderEmail: "noreply@acme.example",
});


describe("templates", () => {
  it("appends the code to callback URLs with and without a query", () => {
    expect(codeLink("https://app.example.com/handler/email-verification", "abc")).toBe("https://app.example.com/handler/email-verification?code=abc");
    expect(codeLink("https://app.example.com/cb?x=1", "abc")).toBe("https://app.example.com/cb?x=1&code=abc");
    expect(codeLink("https://app.example.com/cb?", "abc")).toBe("https://app.example.com/cb?code=abc");
    expect(codeLink("https://app.example.com/cb?x=1#top", "a b")).toBe("https://app.example.com/cb?x=1&code=a%20b#top");
  });

  it("renders every flow's mail from the project's TSX template, escaping values in HTML", async () => {
    const project = await getProject(server.db, (await createTestProject(server, "Acme <Corp>")).projectId);
    const variables: Record<string, string> = {
      emailVerificationLink: "https://a.example/v?code=1&x=2",
      passwordResetLink: "https://a.example/r?code=1",
      magicLink: "https://a.example/m?code=ABC123xyz",
      otp: "ABC123",
      teamDisplayName: "Team & Co",
      teamInvitationLink: "https://a.example/t?code=1",
      signInInvitationLink: "https://a.example/s",
    };
    for (const template of Object.values(DEFAULT_EMAIL_TEMPLATES)) {
      const rendered = await renderTransactionalEmail(project!, template.id, variables, "Ada <b>");
      expect(rendered.text, template.id).toContain(variables[template.linkVariable]);
      expect(rendered.html, template.id).not.toContain("<Corp>");
      expect(rendered.html, template.id).not.toContain("Ada <b>");
    }
    expect((await renderTransactionalEmail(project!, "magic_link", variables, null)).subject).toBe("Sign in to Acme <Corp>: Your code is ABC123");
    expect((await renderTransactionalEmail(project!, "email_verification", variables, null)).html).toContain("https://a.example/v?code=1&amp;x=2");
  });

  it("records a mail the project's template cannot render as a failed send, without throwing", async () => {
    const created = await createTestProject(server);
    const broken = await api(server.url, "/internal/config/override", {
      method: "PATCH",
      headers: created.headers("admin"),
      body: { config_override_string: JSON.stringify({ "emails.templates.a70fb3a4-56c1-4e42-af25-49d25603abd0": { displayName: "Password Reset", tsxSource: "export function EmailTemplate() { throw new Error('boom'); }" } }) },
    });
    expect(broken.status, broken.text).toBe(200);
    const to = email();
    const result = await sendEmail(deps(), await getProject(server.db, created.projectId), { to, template: "password_reset", variables: { passwordResetLink: "https://a.example/r" } });
    expect(result.error).toContain("boom");
    const row = await server.db.selectFrom("sent_emails").selectAll().where("id", "=", result.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ recipient: to, subject: "Password Reset", error: expect.stringContaining("boom") });
  });
});

describe("the project's email theme", () => {
  it("wraps every flow's mail once the project selects it", async () => {
    const project = await createTestProject(server, "Themed");
    await configureEmail(project, standardConfig(smtp.port));
    const created = await api(server.url, "/internal/email-themes", { headers: project.headers("admin"), body: { display_name: "Brand" } });
    expect(created.status, created.text).toBe(200);
    const source = 'export function EmailTheme({ children }) { return <html><body><p>Brand header</p>{children}<p>Brand footer</p></body></html>; }';
    const saved = await api(server.url, `/internal/email-themes/${created.body.id}`, { method: "PATCH", headers: project.headers("admin"), body: { tsx_source: source } });
    expect(saved.status, saved.text).toBe(200);
    const selected = await api(server.url, "/internal/projects/current", { method: "PATCH", headers: project.headers("admin"), body: { config: { email_theme: created.body.id } } });
    expect(selected.status, selected.text).toBe(200);

    const row = await getProject(server.db, project.projectId);
    const mails = {
      email_verification: { emailVerificationLink: "https://a.example/v?code=1" },
      password_reset: { passwordResetLink: "https://a.example/r?code=1" },
      magic_link: { magicLink: "https://a.example/m?code=1", otp: "ABC123" },
      team_invitation: { teamDisplayName: "Team", teamInvitationLink: "https://a.example/t?code=1" },
      sign_in_invitation: { signInInvitationLink: "https://a.example/s" },
    } as const;
    for (const [template, variables] of Object.entries(mails)) {
      const to = email();
      const result = await sendEmail(deps(), row, { to, template: template as keyof typeof mails, variables });
      expect(result.error, template).toBeNull();
      const message = await smtp.nextMessage(to);
      expect(message.html, template).toContain("Brand header");
      expect(message.html, template).toContain("Brand footer");
      const link = (variables as Record<string, string>)[DEFAULT_EMAIL_TEMPLATES[template as keyof typeof mails].linkVariable];
      expect(message.text, template).toContain(link);
    }
  });
});

describe("SMTP delivery", () => {
  it("sends a real message through the project's own SMTP server", async () => {
    const project = await createTestProject(server, "Acme Rockets");
    await configureEmail(project, standardConfig(smtp.port));
    const to = email();
    const link = codeLink("https://app.example.com/handler/email-verification?after=1", "the-code");
    const result = await sendEmail(deps(), await getProject(server.db, project.projectId), {
      to,
      template: "email_verification",
      variables: { emailVerificationLink: link, userDisplayName: "Ada" },
    });
    expect(result.error).toBeNull();

    const message = await smtp.nextMessage(to);
    expect(message.from).toEqual({ name: "Acme Rockets", address: "noreply@acme.example" });
    expect(message.auth).toEqual({ username: "mailer", password: "mailer-password" });
    expect(message.subject).toBe("Verify your email at Acme Rockets");
    expect(message.text).toContain("Hi, Ada!");
    expect(message.text).toContain("https://app.example.com/handler/email-verification?after=1&code=the-code");
    expect(message.html).toContain('href="https://app.example.com/handler/email-verification?after=1&amp;code=the-code"');
    const followed = new URL(message.text.match(/https:\/\/\S+/)![0]);
    expect(followed.searchParams.get("code")).toBe("the-code");

    const row = await server.db.selectFrom("sent_emails").selectAll().where("id", "=", result.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ recipient: to, subject: "Verify your email at Acme Rockets", error: null, delivery: "smtp", template: "email_verification" });
    // The delivered body (with its live link) is not kept in the database.
    expect(row.html).toBeNull();
    expect(row.text).toBeNull();
  });

  it("puts the 6-character code in the magic-link subject", async () => {
    const project = await createTestProject(server, "Otp Project");
    await configureEmail(project, standardConfig(smtp.port));
    const to = email();
    await sendEmail(deps(), await getProject(server.db, project.projectId), {
      to,
      template: "magic_link",
      variables: { otp: "X7K2Q9", magicLink: codeLink("https://app.example.com/handler/magic-link-callback", "X7K2Q9nonce") },
    });
    const message = await smtp.nextMessage(to);
    expect(message.subject).toBe("Sign in to Otp Project: Your code is X7K2Q9");
    expect(message.text).toContain("X7K2Q9");
    expect(message.html).toContain("X7K2Q9");
  });

  it("records a failed send with its error and does not throw", async () => {
    const project = await createTestProject(server, "Broken Mail");
    await configureEmail(project, standardConfig(await closedPort()));
    const to = email();
    const result = await sendEmail(deps(), await getProject(server.db, project.projectId), {
      to,
      template: "password_reset",
      variables: { passwordResetLink: "https://app.example.com/reset?code=1" },
    });
    expect(result.error).toMatch(/ECONNREFUSED/);
    const list = await api(server.url, "/internal/emails", { headers: project.headers("admin") });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ id: result.id, to: [to], subject: "Reset your password at Broken Mail", error: result.error });
  });

  it("records a refused login with the SMTP error text", async () => {
    const refusing = await startSmtpCapture({ rejectAuth: true });
    try {
      const project = await createTestProject(server, "Wrong Password");
      await configureEmail(project, standardConfig(refusing.port));
      const result = await sendEmail(deps(), await getProject(server.db, project.projectId), {
        to: email(),
        template: "sign_in_invitation",
        variables: { signInInvitationLink: "https://app.example.com/handler/sign-in" },
      });
      expect(result.error).toMatch(/Invalid username or password/);
      expect(refusing.messages).toHaveLength(0);
    } finally {
      await refusing.close();
    }
  });

  it("sends shared-config mail through the server's own SMTP server from the environment", async () => {
    const shared = await startTestServer({ LATCHKEY_SMTP_URL: `smtp://relay:relay-secret@127.0.0.1:${smtp.port}`, LATCHKEY_EMAIL_SENDER: "auth@latchkey.example" });
    try {
      const project = await createTestProject(shared, "Shared Sender");
      const to = email();
      const result = await sendEmail({ db: shared.db, env: shared.env, log: createLogger("silent") }, await getProject(shared.db, project.projectId), {
        to,
        template: "team_invitation",
        variables: { teamDisplayName: "Rocketeers", teamInvitationLink: "https://app.example.com/handler/team-invitation?code=t" },
      });
      expect(result.error).toBeNull();
      const message = await smtp.nextMessage(to);
      expect(message.from).toEqual({ name: "Shared Sender", address: "auth@latchkey.example" });
      expect(message.auth).toEqual({ username: "relay", password: "relay-secret" });
      expect(message.subject).toBe("You have been invited to join Rocketeers");
    } finally {
      await shared.close();
    }
  });
});

describe("dev outbox", () => {
  it("stores mail when no SMTP server is configured, logs one line with the link, and shows it on /dev/outbox", async () => {
    const project = await createTestProject(server, "Outbox Project");
    const lines: string[] = [];
    const log = pino({ level: "info" }, new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } }));
    const to = email();
    const link = codeLink("https://app.example.com/handler/magic-link-callback", "Q1W2E3nonce");
    const result = await sendEmail(deps(log), await getProject(server.db, project.projectId), { to, template: "magic_link", variables: { otp: "Q1W2E3", magicLink: link } });
    expect(result.error).toBeNull();
    expect(smtp.messages.some((m) => m.to.includes(to))).toBe(false);

    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.emailId === result.id);
    expect(logged).toHaveLength(1);
    expect(logged[0].msg).toContain(link);
    expect(logged[0].msg).toContain("Q1W2E3");

    const page = await fetch(`${server.url}/dev/outbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain(to);
    expect(html).toContain("Sign in to Outbox Project: Your code is Q1W2E3");
    expect(html).toContain(`href="${link}"`);

    const filtered = await (await fetch(`${server.url}/dev/outbox?to=${encodeURIComponent("nobody@example.com")}`)).text();
    expect(filtered).not.toContain(to);

    const list = await api(server.url, "/internal/emails", { headers: project.headers("admin") });
    expect(list.body.items).toEqual([
      { id: result.id, subject: "Sign in to Outbox Project: Your code is Q1W2E3", sent_at_millis: expect.any(Number), to: [to], sender_config: { type: "shared", sender_name: "Outbox Project", sender_email: server.env.emailSender }, error: null },
    ]);
  });

  it("is not served outside dev mode", async () => {
    const production = await startTestServer({ LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "x".repeat(40) });
    try {
      const page = await fetch(`${production.url}/dev/outbox`);
      expect(page.status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe("GET /internal/emails", () => {
  it("lists the project's mail newest first, without passwords, for admins only", async () => {
    const project = await createTestProject(server, "Listing");
    await configureEmail(project, standardConfig(smtp.port));
    const row = await getProject(server.db, project.projectId);
    const first = await sendEmail(deps(), row, { to: email(), template: "sign_in_invitation", variables: { signInInvitationLink: "https://a.example/1" } });
    const second = await sendEmail(deps(), row, { to: email(), template: "sign_in_invitation", variables: { signInInvitationLink: "https://a.example/2" } });
    const list = await api(server.url, "/internal/emails", { headers: project.headers("admin") });
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
    expect(list.body.items[0].sender_config).toEqual({ type: "standard", host: "127.0.0.1", port: smtp.port, username: "mailer", sender_name: "Configured sender", sender_email: "noreply@acme.example" });
    expect(list.text).not.toContain("mailer-password");

    // Without a sender name of its own, the project's mail goes out under (and is logged with) the project's name.
    const unnamed = await createTestProject(server, "Unnamed Sender");
    const { senderName: _unused, ...withoutName } = standardConfig(smtp.port);
    await configureEmail(unnamed, withoutName);
    await sendEmail(deps(), await getProject(server.db, unnamed.projectId), { to: email(), template: "sign_in_invitation", variables: { signInInvitationLink: "https://a.example/3" } });
    const unnamedList = await api(server.url, "/internal/emails", { headers: unnamed.headers("admin") });
    expect(unnamedList.body.items[0].sender_config).toEqual({ type: "standard", host: "127.0.0.1", port: smtp.port, username: "mailer", sender_name: "Unnamed Sender", sender_email: "noreply@acme.example" });

    const other = await createTestProject(server, "Other");
    expect((await api(server.url, "/internal/emails", { headers: other.headers("admin") })).body.items).toEqual([]);
    const asServer = await api(server.url, "/internal/emails", { headers: project.headers("server") });
    expect(asServer.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});
