import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlToText, renderContentEmail } from "../src/email/templates.js";
import { api, expectProtocolInvariants, type ApiResponse } from "./support/api.js";
import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from "./support/smtp-capture.js";
import { freePort } from "./support/ports.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

/**
 * `POST /emails/send-email` over real SMTP, notification preferences honoured, and the unsubscribe link
 * of a received marketing mail followed as a mail client would: a plain request, no keys, no session.
 */

let server: TestServer;
let smtp: SmtpCapture;

beforeAll(async () => {
  // The server's public URL must be where it listens, so the links it mails can be followed as they are.
  const port = await freePort();
  [server, smtp] = await Promise.all([
    startTestServer({ LATCHKEY_PORT: String(port), LATCHKEY_PUBLIC_URL: `http://127.0.0.1:${port}` }),
    startSmtpCapture(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), smtp?.close()]);
});

const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
const email = () => `reader-${crypto.randomUUID()}@example.com`;


function call(project: TestProject, access: "client" | "server" | "admin", path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiResponse> {
  return api(server.url, path, { ...init, headers: project.headers(access) });
}

/** A project whose mail goes to the capture through its own SMTP server. */
async function mailingProject(name = "Newsletter Co"): Promise<TestProject> {
  const project = await createTestProject(server, name);
  const emailServer = { isShared: false, host: smtp.host, port: smtp.port, username: "mailer", password: "secret", senderName: name, senderEmail: "news@newsletter.example" };
  const response = await call(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: JSON.stringify({ "emails.server": emailServer }) } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return project;
}

async function user(project: TestProject, primaryEmail: string | null = email()): Promise<{ id: string; email: string | null }> {
  const response = await call(project, "server", "/users", { method: "POST", body: primaryEmail ? { primary_email: primaryEmail } : {} });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, email: primaryEmail };
}

function sendEmail(project: TestProject, body: Record<string, unknown>): Promise<ApiResponse> {
  return call(project, "server", "/emails/send-email", { method: "POST", body });
}

async function marketingEnabled(project: TestProject, userId: string): Promise<boolean> {
  const response = await call(project, "server", `/emails/notification-preference/${userId}`);
  expect(response.status).toBe(200);
  return response.body.items.find((item: { notification_category_id: string }) => item.notification_category_id === MARKETING).enabled;
}

/** The unsubscribe link of a received mail, from its text part; the HTML part must carry the same one. */
function unsubscribeLinkOf(message: CapturedEmail): string {
  const link = message.text.match(/https?:\/\/\S+\/api\/v1\/emails\/unsubscribe-link\?code=\S+/)?.[0];
  expect(link, message.text).toBeDefined();
  expect(message.html).toContain(`href="${link!.replaceAll("&", "&amp;")}"`);
  return link!;
}

/** A header of a received mail as it came over the wire (unfolded), or undefined. */
function header(message: CapturedEmail, name: string): string | undefined {
  const line = message.parsed.headerLines.find((h) => h.key === name)?.line;
  return line?.slice(line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim();
}

/** Follows a link as a browser would: no x-stack headers, no session. */
async function follow(link: string, method = "GET"): Promise<{ status: number; text: string; body: any }> {
  const response = await fetch(link, { method, ...(method === "POST" ? { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" } : {}) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text
  }
  expectProtocolInvariants(response, body);
  return { status: response.status, text, body };
}

/** Waits until the capture has had time to receive anything sent, then says whether `address` got mail. */
async function receivedAny(address: string): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return smtp.messages.some((m) => m.to.includes(address.toLowerCase()));
}

describe("sending mail written by the server", () => {
  it("sends marketing mail with an unsubscribe link in both parts and the List-Unsubscribe headers", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    const response = await sendEmail(project, {
      user_ids: [reader.id],
      subject: "Our spring update",
      html: "<h1>Spring update</h1><p>Read <a href=\"https://newsletter.example/spring?a=1&amp;b=2\">the post</a>.</p>",
      notification_category_name: "Marketing",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ results: [{ user_id: reader.id, user_email: reader.email }] });

    const message = await smtp.nextMessage(reader.email!);
    expect(message.subject).toBe("Our spring update");
    expect(message.from).toEqual({ name: "Newsletter Co", address: "news@newsletter.example" });
    expect(message.html).toContain("<h1>Spring update</h1>");
    expect(message.text).toContain("Spring update");
    expect(message.text).toContain("the post (https://newsletter.example/spring?a=1&b=2)");
    const link = unsubscribeLinkOf(message);
    expect(link.startsWith(`${server.env.publicUrl}/api/v1/emails/unsubscribe-link?code=`)).toBe(true);
    expect(header(message, "list-unsubscribe")).toBe(`<${link}>`);
    expect(header(message, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  });

  it("sends transactional mail (the default category) without any unsubscribe link", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    const response = await sendEmail(project, { user_ids: [reader.id], subject: "Your invoice", html: "<p>Invoice attached.</p>" });
    expect(response.status).toBe(200);
    const message = await smtp.nextMessage(reader.email!);
    expect(message.text).toContain("Invoice attached.");
    expect(message.text).not.toContain("unsubscribe");
    expect(message.html).not.toContain("unsubscribe");
    expect(header(message, "list-unsubscribe")).toBeUndefined();
  });

  it("skips a user who turned marketing off, but still sends them transactional mail", async () => {
    const project = await mailingProject();
    const [keen, tired] = [await user(project), await user(project)];
    const off = await call(project, "server", `/emails/notification-preference/${tired.id}/${MARKETING}`, { method: "PATCH", body: { enabled: false } });
    expect(off.status).toBe(200);

    const response = await sendEmail(project, { user_ids: [keen.id, tired.id], subject: "Big sale", html: "<p>Everything must go</p>", notification_category_name: "Marketing" });
    expect(response.status).toBe(200);
    // Every addressed user is listed, sent or not, as the protocol answers.
    expect(response.body.results).toEqual([
      { user_id: keen.id, user_email: keen.email },
      { user_id: tired.id, user_email: tired.email },
    ]);
    expect((await smtp.nextMessage(keen.email!)).subject).toBe("Big sale");
    expect(await receivedAny(tired.email!)).toBe(false);

    await sendEmail(project, { user_ids: [tired.id], subject: "Password changed", html: "<p>Your password was changed.</p>" });
    expect((await smtp.nextMessage(tired.email!)).subject).toBe("Password changed");
  });

  it("sends to every user of the project with all_users, listing those without an email too", async () => {
    const project = await mailingProject();
    const other = await mailingProject("Other project");
    const [a, b, silent] = [await user(project), await user(project), await user(project, null)];
    const outsider = await user(other);
    const response = await sendEmail(project, { all_users: true, subject: "Hello all", html: "<p>Hi</p>", notification_category_name: "Marketing" });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([{ user_id: a.id, user_email: a.email }, { user_id: b.id, user_email: b.email }, { user_id: silent.id }]);
    expect((await smtp.nextMessage(a.email!)).subject).toBe("Hello all");
    expect((await smtp.nextMessage(b.email!)).subject).toBe("Hello all");
    expect(await receivedAny(outsider.email!)).toBe(false);
  });
});

describe("unsubscribe links", () => {
  it("turns marketing off when the link from a received mail is opened without signing in, and later marketing mail is skipped", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    await sendEmail(project, { user_ids: [reader.id], subject: "Issue 1", html: "<p>News</p>", notification_category_name: "Marketing" });
    const link = unsubscribeLinkOf(await smtp.nextMessage(reader.email!));
    expect(await marketingEnabled(project, reader.id)).toBe(true);

    const opened = await follow(link);
    expect(opened.status).toBe(200);
    expect(opened.text).toBe("Successfully unsubscribed from notification group");
    expect(await marketingEnabled(project, reader.id)).toBe(false);
    // Opening it again (mail clients and people do) changes nothing and is no error.
    expect((await follow(link)).status).toBe(200);
    expect(await marketingEnabled(project, reader.id)).toBe(false);

    await sendEmail(project, { user_ids: [reader.id], subject: "Issue 2", html: "<p>More news</p>", notification_category_name: "Marketing" });
    expect(await receivedAny(reader.email!)).toBe(true); // issue 1 only
    expect(smtp.messages.filter((m) => m.to.includes(reader.email!)).map((m) => m.subject)).toEqual(["Issue 1"]);
  });

  it("supports the one-click POST that mail clients send for List-Unsubscribe-Post", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    await sendEmail(project, { user_ids: [reader.id], subject: "Digest", html: "<p>Digest</p>", notification_category_name: "Marketing" });
    const link = header(await smtp.nextMessage(reader.email!), "list-unsubscribe")!.replace(/^<|>$/g, "");
    const clicked = await follow(link, "POST");
    expect(clicked.status).toBe(200);
    expect(await marketingEnabled(project, reader.id)).toBe(false);
  });

  it("unsubscribes only the mail's recipient, from only that category", async () => {
    const project = await mailingProject();
    const [reader, neighbour] = [await user(project), await user(project)];
    await sendEmail(project, { user_ids: [reader.id, neighbour.id], subject: "Weekly", html: "<p>Weekly</p>", notification_category_name: "Marketing" });
    await follow(unsubscribeLinkOf(await smtp.nextMessage(reader.email!)));
    const items = (await call(project, "server", `/emails/notification-preference/${reader.id}`)).body.items;
    expect(items.map((i: { enabled: boolean }) => i.enabled)).toEqual([true, false]);
    expect(await marketingEnabled(project, neighbour.id)).toBe(true);
  });

  it("refuses a tampered, missing or expired code with the verification errors", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    await sendEmail(project, { user_ids: [reader.id], subject: "Promo", html: "<p>Promo</p>", notification_category_name: "Marketing" });
    const link = new URL(unsubscribeLinkOf(await smtp.nextMessage(reader.email!)));
    const code = link.searchParams.get("code")!;

    const tampered = new URL(link);
    tampered.searchParams.set("code", code.slice(0, 44) + (code[44] === "a" ? "b" : "a"));
    expect((await follow(tampered.toString())).body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    const short = new URL(link);
    short.searchParams.set("code", "abc");
    expect((await follow(short.toString())).body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    const missing = new URL(link);
    missing.search = "";
    expect((await follow(missing.toString())).body.code).toBe("SCHEMA_ERROR");

    await server.db.updateTable("verification_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("purpose", "=", "unsubscribe").where("project_id", "=", project.projectId).execute();
    const expired = await follow(link.toString());
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("VERIFICATION_CODE_EXPIRED");
    expect(await marketingEnabled(project, reader.id)).toBe(true);
  });
});

describe("send-email errors", () => {
  it("requires the project's own email server, as the protocol does", async () => {
    const project = await createTestProject(server, "Shared sender");
    const reader = await user(project);
    const response = await sendEmail(project, { user_ids: [reader.id], subject: "Hi", html: "<p>Hi</p>" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "REQUIRES_CUSTOM_EMAIL_SERVER", error: "This action requires a custom SMTP server. Please edit your email server configuration and try again." });
  });

  it("is for servers only", async () => {
    const project = await mailingProject();
    const response = await call(project, "client", "/emails/send-email", { method: "POST", body: { all_users: true, html: "<p>x</p>" } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("answers the protocol's schema errors for a body with both or neither recipient lists", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    const cases: [Record<string, unknown>, string][] = [
      [{ html: "<p>x</p>" }, "Exactly one of user_ids or all_users must be provided"],
      [{ user_ids: [reader.id], all_users: true, html: "<p>x</p>" }, "Exactly one of user_ids or all_users must be provided"],
    ];
    for (const [body, message] of cases) {
      const response = await sendEmail(project, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: "SCHEMA_ERROR", error: message, details: { message } });
    }
    const badShape = await sendEmail(project, { user_ids: ["not-a-uuid"], all_users: false, html: 1 });
    expect(badShape.body.code).toBe("SCHEMA_ERROR");
    expect(badShape.body.error).toContain("body.user_ids[0] must be a valid UUID");
    expect(badShape.body.error).toContain("body.html must be a `string` type");
  });

  it("refuses unknown templates and drafts, and code that does not render, before sending anything", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    const unknownTemplate = await sendEmail(project, { user_ids: [reader.id], template_id: crypto.randomUUID() });
    expect(unknownTemplate.status).toBe(400);
    expect(unknownTemplate.text).toBe("No template found with given template_id");
    const unknownDraft = await sendEmail(project, { user_ids: [reader.id], draft_id: crypto.randomUUID() });
    expect(unknownDraft.status).toBe(400);
    expect(unknownDraft.text).toBe("No draft found with given draft_id");
    const broken = await call(project, "admin", "/internal/email-drafts", {
      method: "POST",
      body: { display_name: "Broken", tsx_source: "export function EmailTemplate() { throw new Error('no such thing'); }" },
    });
    expect(broken.status, broken.text).toBe(200);
    const refused = await sendEmail(project, { user_ids: [reader.id], draft_id: broken.body.id });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("EMAIL_RENDERING_ERROR");
    expect(refused.body.error).toContain("no such thing");
    expect(await receivedAny(reader.email!)).toBe(false);
  });
  it("names the first unknown user and sends nothing", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    const stranger = crypto.randomUUID();
    const response = await sendEmail(project, { user_ids: [reader.id, stranger], subject: "x", html: "<p>x</p>" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: stranger } });
    expect(await receivedAny(reader.email!)).toBe(false);
  });

  it("answers 400 for an unknown notification category", async () => {
    const project = await mailingProject();
    const reader = await user(project);
    const response = await sendEmail(project, { user_ids: [reader.id], subject: "x", html: "<p>x</p>", notification_category_name: "Newsletters" });
    expect(response.status).toBe(400);
    expect(response.text).toBe("Notification category not found with given name");
  });
});

describe("rendering caller-written mail", () => {
  it("derives a readable text part: blocks on their own lines, link targets kept, hidden parts and tags dropped", () => {
    const html = `<html><head><title>T</title><style>p{color:red}</style></head><body><h1>Hello &amp; welcome</h1><p>Line one<br>Line two</p>
<p>See <a href='https://x.example/a?b=1&amp;c=2'>our <b>site</b></a> or https://plain.example.</p><script>alert(1)</script><p>Bye</p></body></html>`;
    expect(htmlToText(html)).toBe("Hello & welcome\nLine one\nLine two\n\nSee our site (https://x.example/a?b=1&c=2) or https://plain.example.\nBye");
    expect(htmlToText('<a href="https://same.example">https://same.example</a>')).toBe("https://same.example");
  });

  it("copes with broken markup without losing the words", () => {
    expect(htmlToText("a < b and <a href=x>unclosed")).toBe("a < b and unclosed");
    expect(htmlToText("<p>one</div></a></p>two")).toBe("one\n\ntwo");
    const many = "<a".repeat(50_000);
    expect(htmlToText(many)).toBe(many);
  });

  it("puts the unsubscribe footer before </body> of a full document, or wraps a fragment", () => {
    const link = "https://auth.example/api/v1/emails/unsubscribe-link?code=abc&x=1";
    const full = renderContentEmail({ subject: "S\r\nBcc: evil@example.com", html: "<html><body><p>Hi</p></body></html>", unsubscribeLink: link });
    expect(full.subject).toBe("S Bcc: evil@example.com");
    expect(full.html).toMatch(/<p>Hi<\/p><p [^>]*><a href="https:\/\/auth\.example\/api\/v1\/emails\/unsubscribe-link\?code=abc&amp;x=1">Click here<\/a> to unsubscribe from these emails<\/p><\/body><\/html>$/);
    expect(full.text).toBe(`Hi\n\nTo unsubscribe from these emails, open this link:\n${link}\n`);
    const fragment = renderContentEmail({ subject: "S", html: "<p>Hi</p>" });
    expect(fragment.html).toMatch(/^<!doctype html><html><body[^>]*>\n<div[^>]*><p>Hi<\/p><\/div>/);
    expect(fragment.html).not.toContain("unsubscribe");
    expect(fragment.text).toBe("Hi\n");
  });
});

describe("sending the project's TSX templates and drafts", () => {
  const DARK_THEME = "a0172b5d-cff0-463b-83bb-85124697373a";
  const TEMPLATE_SOURCE = `import { Section, Text } from "@react-email/components";
import { NotificationCategory, Subject, type Props } from "@stackframe/emails";

export function EmailTemplate({ user, project, variables }: Props<{ release: string }>) {
  return (
    <Section>
      <Subject value={"Release " + variables.release + " of " + project.displayName} />
      <NotificationCategory value="Marketing" />
      <Text>Hello {user.displayName ?? "there"}, version {variables.release} is out.</Text>
    </Section>
  );
}
`;

  async function namedUser(project: TestProject, displayName: string): Promise<{ id: string; email: string }> {
    const address = email();
    const response = await call(project, "server", "/users", { method: "POST", body: { primary_email: address, display_name: displayName } });
    expect(response.status).toBe(201);
    return { id: response.body.id, email: address };
  }

  it("renders a template per user with the variables, its subject, its category's unsubscribe link, and the chosen theme", async () => {
    const project = await mailingProject("Release Co");
    const created = await call(project, "admin", "/internal/email-templates", { method: "POST", body: { display_name: "Release notes" } });
    expect(created.status, created.text).toBe(200);
    const saved = await call(project, "admin", `/internal/email-templates/${created.body.id}`, { method: "PATCH", body: { tsx_source: TEMPLATE_SOURCE } });
    expect(saved.status, saved.text).toBe(200);
    const [ada, bob] = [await namedUser(project, "Ada <Lovelace>"), await namedUser(project, "Bob")];

    const response = await sendEmail(project, { user_ids: [ada.id, bob.id], template_id: created.body.id, variables: { release: "2.0" } });
    expect(response.status, response.text).toBe(200);
    const [toAda, toBob] = [await smtp.nextMessage(ada.email), await smtp.nextMessage(bob.email)];
    expect(toAda.subject).toBe("Release 2.0 of Release Co");
    expect(toAda.html).toContain("Hello Ada &lt;Lovelace&gt;, version 2.0 is out.");
    expect(toBob.text).toContain("Hello Bob, version 2.0 is out.");
    // Marketing (the template's category) can be turned off: each mail has its own unsubscribe link.
    expect(unsubscribeLinkOf(toAda)).not.toBe(unsubscribeLinkOf(toBob));
    expect(header(toAda, "list-unsubscribe")).toBe(`<${unsubscribeLinkOf(toAda)}>`);

    // The project's selected theme (Default Light) wraps it; the dark one when asked, and a given subject wins.
    const pageColour = (html: string) => /<body[^>]*background-color:\s*([^;"]+)/i.exec(html)?.[1];
    expect(pageColour(toAda.html)).toBeDefined();
    const dark = await sendEmail(project, { user_ids: [ada.id], template_id: created.body.id, variables: { release: "2.1" }, theme_id: DARK_THEME, subject: "Dark news" });
    expect(dark.status).toBe(200);
    const darkMail = await smtp.nextMessage(ada.email);
    expect(darkMail.subject).toBe("Dark news");
    expect(darkMail.html).toContain("version 2.1 is out.");
    expect(pageColour(darkMail.html)).toBeDefined();
    expect(pageColour(darkMail.html)).not.toBe(pageColour(toAda.html));
  });

  it("sends a draft to all users and marks it sent", async () => {
    const project = await mailingProject("Draft Co");
    const [ada, bob] = [await namedUser(project, "Ada"), await namedUser(project, "Bob")];
    const draft = await call(project, "admin", "/internal/email-drafts", {
      method: "POST",
      body: {
        display_name: "Hello everyone",
        tsx_source: `import { Subject } from "@stackframe/emails";\nexport function EmailTemplate({ user }) { return <><Subject value="A note for you" /><p>Dear {user.displayName},</p></>; }\n`,
      },
    });
    expect(draft.status, draft.text).toBe(200);
    expect((await call(project, "admin", `/internal/email-drafts/${draft.body.id}`)).body.sent_at_millis).toBeNull();

    const response = await sendEmail(project, { all_users: true, draft_id: draft.body.id });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results.map((r: { user_id: string }) => r.user_id).sort()).toEqual([ada.id, bob.id].sort());
    for (const [who, address] of [["Ada", ada.email], ["Bob", bob.email]] as const) {
      const mail = await smtp.nextMessage(address);
      expect(mail.subject).toBe("A note for you");
      expect(mail.text).toContain(`Dear ${who},`);
    }
    expect((await call(project, "admin", `/internal/email-drafts/${draft.body.id}`)).body.sent_at_millis).toEqual(expect.any(Number));
  });

  it("wraps written HTML in the theme named by theme_id", async () => {
    const project = await mailingProject("Themed Co");
    const reader = await user(project);
    const plain = await sendEmail(project, { user_ids: [reader.id], subject: "Plain", html: "<p>Same words</p>" });
    expect(plain.status).toBe(200);
    const themed = await sendEmail(project, { user_ids: [reader.id], subject: "Themed", html: "<p>Same words</p>", theme_id: DARK_THEME });
    expect(themed.status, themed.text).toBe(200);
    const [first, second] = [await smtp.nextMessage(reader.email!), await smtp.nextMessage(reader.email!)];
    const themedMail = first.subject === "Themed" ? first : second;
    const plainMail = first.subject === "Themed" ? second : first;
    expect(themedMail.html).toContain("<p>Same words</p>");
    expect(themedMail.html).toMatch(/<body[^>]*background-color/i);
    expect(plainMail.html).not.toMatch(/<body[^>]*background-color/i);
  });
});
