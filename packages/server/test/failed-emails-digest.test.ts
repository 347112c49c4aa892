import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../src/log.js";
import { claimDailyDigest, runFailedEmailsDigest } from "../src/services/failed-emails-digest.js";
import { getProject } from "../src/services/projects.js";
import { createUser } from "../src/services/users.js";
import { api } from "./support/api.js";
import { startSmtpCapture, type SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { closedPort } from "./support/ports.js";

// Issue 19: the failed-emails digest. A project whose own SMTP server refuses connections fails its sends
// (really: nodemailer meets a closed port); its admins then get one mail from Latchkey's shared SMTP server
// (a real SMTP server in the test) listing them, and the next digest reports only newer failures.
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
const deps = () => ({ db: server.db, env: server.env, log: createLogger("silent") });


/** A project with one admin (a user of the internal project in the team owning it) and an SMTP server that is down. */
async function projectWithFailingMail(name: string): Promise<{ project: TestProject; adminEmail: string }> {
  const project = await createTestProject(server, name);
  const adminEmail = email();
  const admin = await createUser(server.db, (await getProject(server.db, "internal"))!, { primaryEmail: adminEmail, primaryEmailVerified: true });
  await server.db.updateTable("projects").set({ owner_team_id: admin.selected_team_id }).where("id", "=", project.projectId).execute();
  const configured = await api(server.url, "/internal/config/override", {
    method: "PATCH",
    headers: project.headers("admin"),
    body: {
      config_override_string: JSON.stringify({
        "emails.server": { isShared: false, host: "127.0.0.1", port: await closedPort(), username: "u", password: "p", senderName: "S", senderEmail: "s@acme.example" },
      }),
    },
  });
  expect(configured.status).toBe(200);
  return { project, adminEmail };
}

/** Mails `count` new users of the project through its (failing) server: each send is recorded with its error. */
async function failSends(project: TestProject, count: number, subject: string): Promise<void> {
  const userIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await api(server.url, "/users", { headers: project.headers("server"), body: { primary_email: email() } });
    expect(created.status).toBe(201);
    userIds.push(created.body.id);
  }
  const sent = await api(server.url, "/emails/send-email", { headers: project.headers("server"), body: { user_ids: userIds, subject, html: "<p>Hello</p>" } });
  expect(sent.status, sent.text).toBe(200);
}

const digest = (authorization: string | undefined, query = "") =>
  api(server.url, `/internal/failed-emails-digest${query}`, { method: "POST", headers: authorization ? { authorization } : {} });

describe("POST /internal/failed-emails-digest", () => {
  it("mails each admin the failures since the last digest, once", async () => {
    const { project, adminEmail } = await projectWithFailingMail("Digest project");
    await failSends(project, 2, "Weekly news");

    const dry = await digest(`Bearer ${CRON_SECRET}`, "?dry_run=true");
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.digests).toContainEqual({ project_id: project.projectId, failed_emails: 2, recipients: [adminEmail] });
    expect(smtp.messages.filter((m) => m.to.includes(adminEmail))).toEqual([]);

    const response = await digest(`Bearer ${CRON_SECRET}`);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.digests).toContainEqual({ project_id: project.projectId, failed_emails: 2, recipients: [adminEmail] });
    const mail = await smtp.nextMessage(adminEmail);
    expect(mail.subject).toBe("2 failed emails in Digest project");
    expect(mail.html).toContain("Weekly news");
    expect(mail.html).toContain("ECONNREFUSED");

    // Nothing new: no second mail. A newer failure: a digest of that one alone.
    expect((await digest(`Bearer ${CRON_SECRET}`)).body.digests.find((d: { project_id: string }) => d.project_id === project.projectId)).toBeUndefined();
    await failSends(project, 1, "Another <b>issue</b>");
    const next = await digest(`Bearer ${CRON_SECRET}`);
    expect(next.body.digests).toContainEqual({ project_id: project.projectId, failed_emails: 1, recipients: [adminEmail] });
    const second = await smtp.nextMessage(adminEmail);
    expect(second.subject).toBe("1 failed email in Digest project");
    // The failed mail's subject is shown as text.
    expect(second.html).toContain("Another &lt;b&gt;issue&lt;/b&gt;");
    expect(smtp.messages.filter((m) => m.to.includes(adminEmail))).toHaveLength(2);
  });

  it("reports each failure once when two digests run at the same time", async () => {
    const { project, adminEmail } = await projectWithFailingMail("Raced digest");
    await failSends(project, 1, "Raced");
    const runs = await Promise.all([runFailedEmailsDigest(deps()), runFailedEmailsDigest(deps())]);
    const reported = runs.flat().filter((d) => d.projectId === project.projectId);
    expect(reported).toEqual([{ projectId: project.projectId, failedEmails: 1, recipients: [adminEmail] }]);
    await smtp.nextMessage(adminEmail);
    expect(smtp.messages.filter((m) => m.to.includes(adminEmail))).toHaveLength(1);
  });

  it("refuses callers without the cron secret", async () => {
    for (const authorization of [undefined, "Bearer wrong-secret-of-some-length", `Basic ${CRON_SECRET}`, CRON_SECRET]) {
      const refused = await digest(authorization);
      expect(refused.status, String(authorization)).toBe(401);
    }
    const bad = await digest(`Bearer ${CRON_SECRET}`, "?dry_run=maybe");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("SCHEMA_ERROR");
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
