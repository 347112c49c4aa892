import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDailyDigest } from "../src/services/failed-emails-digest.js";
import { getProject } from "../src/services/projects.js";
import { createUser } from "../src/services/users.js";
import { api } from "./support/api.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { closedPort } from "./support/ports.js";

// The failed-emails digest, as the reference answers it (issues 19 and 29): a project whose own SMTP server refuses
// connections fails its sends (really: nodemailer meets a closed port); its owners then get one mail, "Failed emails
// digest", from Latchkey's shared SMTP server (a real SMTP server in the test) listing the last 24 hours' failures.
const CRON_SECRET = "cron-secret-for-the-digest-test";
let server: TestServer;
let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({ LATCHKEY_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, LATCHKEY_CRON_SECRET: CRON_SECRET });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const email = () => `user-${crypto.randomUUID()}@example.com`;

/** A project with one owner (a user of the internal project in the team owning it) and an SMTP server that is down. */
async function projectWithFailingMail(on: TestServer, name: string): Promise<{ project: TestProject; ownerEmail: string }> {
  const project = await createTestProject(on, name);
  const ownerEmail = email();
  const owner = await createUser(on.db, (await getProject(on.db, "internal"))!, { primaryEmail: ownerEmail, primaryEmailVerified: true });
  await on.db.updateTable("projects").set({ owner_team_id: owner.selected_team_id }).where("id", "=", project.projectId).execute();
  const configured = await api(on.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: {
      config_override_string: JSON.stringify({
        "emails.server": { isShared: false, host: "127.0.0.1", port: await closedPort(), username: "u", password: "p", senderName: "S", senderEmail: "s@acme.example" },
      }),
    },
  });
  expect(configured.status).toBe(200);
  return { project, ownerEmail };
}

/** Mails new users of the project through its (failing) server: each send is recorded with its error. Returns their addresses. */
async function failSends(on: TestServer, project: TestProject, subject: string, count = 1): Promise<string[]> {
  const addresses: string[] = [];
  const userIds: string[] = [];
  for (let i = 0; i < count; i++) {
    addresses.push(email());
    const created = await api(on.url, "/users", { headers: project.headers("server"), body: { primary_email: addresses[i] } });
    expect(created.status).toBe(201);
    userIds.push(created.body.id);
  }
  const sent = await api(on.url, "/emails/send-email", { headers: project.headers("server"), body: { user_ids: userIds, subject, html: "<p>Hello</p>" } });
  expect(sent.status, sent.text).toBe(200);
  return addresses;
}

const digest = (on: TestServer, authorization: string | undefined, query = "") =>
  fetch(`${on.url}/api/v1/internal/failed-emails-digest${query}`, { method: "POST", headers: authorization ? { authorization } : {} });

interface DigestAnswer {
  failed_emails_by_tenancy: { project_id: string; emails: { subject: string; to: string[] }[] }[];
}
const entryOf = (body: DigestAnswer, projectId: string) => body.failed_emails_by_tenancy.find((d) => d.project_id === projectId);
/** The entry with its two "Weekly" failures in recipient order: one send-email call mails its users at once, so
 * which of the two was recorded first (the digest lists by time) is not fixed. */
function entryWithWeeklyInRecipientOrder(body: DigestAnswer, projectId: string) {
  const entry = entryOf(body, projectId);
  if (!entry) return entry;
  const weekly = entry.emails.filter((e) => e.subject.startsWith("Weekly")).sort((a, b) => a.to[0]!.localeCompare(b.to[0]!));
  return { ...entry, emails: [...weekly, ...entry.emails.filter((e) => !e.subject.startsWith("Weekly"))] };
}

describe("POST /internal/failed-emails-digest", () => {
  it("lists each project's failures of the last 24 hours with its owners, and mails them 'Failed emails digest'", async () => {
    const { project, ownerEmail } = await projectWithFailingMail(server, "Digest project");
    const [first, second] = await failSends(server, project, "Weekly <b>news</b>", 2);
    // A failed test send is in the log too, so the digest lists it.
    const tested = email();
    const test = await api(server.url, "/internal/send-test-email", {
      headers: project.headers("admin"),
      body: { recipient_email: tested, email_config: { host: "127.0.0.1", port: await closedPort(), username: "u", password: "p", sender_name: "S", sender_email: "s@acme.example" } },
    });
    expect(test.body.success).toBe(false);
    // A failure older than a day is not listed.
    const [old] = await failSends(server, project, "Old news");
    await server.db.updateTable("sent_emails").set({ sent_at: new Date(Date.now() - 25 * 3_600_000) } as never).where("recipient", "=", old!).execute();

    const dry = await digest(server, `Bearer ${CRON_SECRET}`, "?dry_run=true");
    expect(dry.status).toBe(200);
    const expected = {
      emails: [
        ...[first!, second!].sort().map((to) => ({ subject: "Weekly <b>news</b>", to: [to] })),
        { subject: "Test Email from Stack Auth", to: [tested] },
      ],
      tenant_owner_emails: [ownerEmail],
      project_id: project.projectId,
      tenancy_id: project.projectId,
    };
    expect(entryWithWeeklyInRecipientOrder(await dry.json(), project.projectId)).toEqual(expected);
    expect(smtp.messages.filter((m) => m.to.includes(ownerEmail))).toEqual([]);

    const response = await digest(server, `Bearer ${CRON_SECRET}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(["success", "failed_emails_by_tenancy"]);
    expect(body.success).toBe(true);
    expect(entryWithWeeklyInRecipientOrder(body, project.projectId)).toEqual(expected);
    const mail = await smtp.nextMessage(ownerEmail);
    expect(mail.subject).toBe("Failed emails digest");
    // The failed mail's subject is shown as text.
    expect(mail.html).toContain("Weekly &lt;b&gt;news&lt;/b&gt; sent to " + first);
    expect(mail.html).toContain("Digest project");
    expect(mail.html).not.toContain("Old news");

    // The span is always the last 24 hours: a second run lists (and mails) the same failures again, as the reference's.
    const again = await digest(server, `Bearer ${CRON_SECRET}`);
    expect(entryWithWeeklyInRecipientOrder(await again.json(), project.projectId)).toEqual(expected);
    await smtp.nextMessage(ownerEmail);
  });

  it("needs the Authorization header (400) and the cron secret in it (401 'Unauthorized')", async () => {
    const missing = await digest(server, undefined);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      code: "SCHEMA_ERROR",
      details: { message: "Request validation failed on POST /api/v1/internal/failed-emails-digest:\n  - headers.authorization must be defined" },
      error: "Request validation failed on POST /api/v1/internal/failed-emails-digest:\n  - headers.authorization must be defined",
    });
    for (const authorization of ["Bearer wrong-secret-of-some-length", `Basic ${CRON_SECRET}`, CRON_SECRET, ""]) {
      const refused = await digest(server, authorization || "Bearer");
      expect(refused.status, authorization).toBe(401);
      expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await refused.text()).toBe("Unauthorized");
    }
    const bad = await digest(server, `Bearer ${CRON_SECRET}`, "?dry_run=maybe");
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe("SCHEMA_ERROR");
  });

  it("answers 500 with success: false when a digest mail cannot be sent", async () => {
    // Latchkey's own mail server is down too: the digest itself fails.
    const down = await startTestServer({ LATCHKEY_SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`, LATCHKEY_CRON_SECRET: CRON_SECRET });
    try {
      const { project, ownerEmail } = await projectWithFailingMail(down, "Unlucky project");
      const [to] = await failSends(down, project, "Lost");
      const response = await digest(down, `Bearer ${CRON_SECRET}`);
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.success).toBe(false);
      expect(entryOf(body, project.projectId)).toEqual({ emails: [{ subject: "Lost", to: [to] }], tenant_owner_emails: [ownerEmail], project_id: project.projectId, tenancy_id: project.projectId });
      // The failed digest is in the internal project's log: the next digest reports it there.
      const internal = (await (await digest(down, `Bearer ${CRON_SECRET}`)).json()) as DigestAnswer;
      expect(entryOf(internal, "internal")?.emails).toContainEqual({ subject: "Failed emails digest", to: [ownerEmail] });
    } finally {
      await down.close();
    }
  });
});

describe("the daily digest", () => {
  it("is claimed by one process a day", async () => {
    const start = new Date(Date.now() + 400 * 86_400_000);
    expect(await claimDailyDigest(server.db, start)).toBe(true);
    const claims = await Promise.all([claimDailyDigest(server.db, new Date(start.getTime() + 3_600_000)), claimDailyDigest(server.db, new Date(start.getTime() + 3_600_000))]);
    expect(claims).toEqual([false, false]);
    const nextDay = new Date(start.getTime() + 86_400_000);
    const raced = await Promise.all([claimDailyDigest(server.db, nextDay), claimDailyDigest(server.db, nextDay)]);
    expect(raced.filter(Boolean)).toHaveLength(1);
  });
});
