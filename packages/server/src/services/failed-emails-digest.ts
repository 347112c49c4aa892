import { sql } from "kysely";
import type { Logger } from "pino";
import type { Db } from "../db/connect.js";
import { escapeHtml } from "../email/templates.js";
import { sendEmail } from "../email/send.js";
import type { AppDeps } from "./deps.js";
import { projectAdminAddresses } from "./project-admins.js";
import { findProject, INTERNAL_PROJECT_ID } from "./projects.js";

/**
 * The failed-emails digest, as the reference runs it: every project with sends that failed in the last 24 hours
 * gets one mail, "Failed emails digest", to its owners (the members of the internal project's team that owns it)
 * listing them. Run by `POST /internal/failed-emails-digest` for an outside scheduler, or, when no scheduler is
 * configured, daily by every server process (`startFailedEmailsDigestTimer`), which claim the day so that only one
 * of them runs it. Mail goes from the internal project, like the rest of Latchkey's own mail.
 */

const DAY_MS = 86_400_000;
/** Failures listed one by one in the mail; the rest are counted (the answer lists them all). */
const LISTED_FAILURES = 50;
export const DIGEST_SUBJECT = "Failed emails digest";

/** One project's failures, in the reference's answer shape (`to` is a list there: one recipient per send here). */
export interface ProjectDigest {
  emails: { subject: string; to: string[] }[];
  tenant_owner_emails: string[];
  project_id: string;
  /** Latchkey has one tenancy (branch `main`) per project: it is named by the project's id. */
  tenancy_id: string;
}

export interface DigestRun {
  /** False when a digest mail could not be sent (the route answers 500). */
  success: boolean;
  failed_emails_by_tenancy: ProjectDigest[];
}

/** Lists the last 24 hours' failed sends per project and mails each project's owners (nothing with `dryRun`). */
export async function runFailedEmailsDigest(deps: Pick<AppDeps, "db" | "env" | "log">, options: { now?: Date; dryRun?: boolean } = {}): Promise<DigestRun> {
  const now = options.now ?? new Date();
  const failures = await deps.db
    .selectFrom("sent_emails")
    .select(["project_id", "subject", "recipient"])
    .where("error", "is not", null)
    .where("sent_at", ">=", new Date(now.getTime() - DAY_MS))
    .where("sent_at", "<=", now)
    .orderBy("project_id")
    .orderBy("sent_at")
    .orderBy("id")
    .execute();
  const byProject = new Map<string, { subject: string; to: string[] }[]>();
  for (const failure of failures) {
    const emails = byProject.get(failure.project_id) ?? [];
    emails.push({ subject: failure.subject, to: [failure.recipient] });
    byProject.set(failure.project_id, emails);
  }
  const digests: ProjectDigest[] = [];
  for (const [projectId, emails] of byProject) {
    digests.push({ emails, tenant_owner_emails: await projectAdminAddresses(deps.db, projectId), project_id: projectId, tenancy_id: projectId });
  }
  let success = true;
  if (!options.dryRun) {
    const internal = await findProject(deps.db, INTERNAL_PROJECT_ID);
    for (const digest of digests) {
      if (digest.tenant_owner_emails.length === 0) continue;
      const project = await findProject(deps.db, digest.project_id);
      if (!project || !internal) continue;
      const html = digestHtml(deps.env.publicUrl, project.id, project.display_name, digest.emails);
      // A failure is recorded like any other send (and listed by the next digest, under the internal project).
      for (const to of digest.tenant_owner_emails) {
        const sent = await sendEmail(deps, internal, { to, subject: DIGEST_SUBJECT, html });
        if (sent.error) success = false;
      }
    }
  }
  return { success, failed_emails_by_tenancy: digests };
}

function digestHtml(publicUrl: string, projectId: string, projectName: string, emails: ProjectDigest["emails"]): string {
  const listed = emails
    .slice(0, LISTED_FAILURES)
    .map((email) => `<li>${escapeHtml(email.subject)} sent to ${escapeHtml(email.to.join(", "))}</li>`)
    .join("");
  const more = emails.length > LISTED_FAILURES ? `<p>…and ${emails.length - LISTED_FAILURES} more.</p>` : "";
  const log = `${publicUrl}/dashboard/projects/${encodeURIComponent(projectId)}/emails`;
  return (
    `<p>In the last 24 hours, one or more emails of your project "${escapeHtml(projectName)}" could not be sent. ` +
    `This is usually due to an incorrect email server configuration.</p>` +
    `<p>The emails that failed:</p><ul>${listed}</ul>${more}` +
    `<p><a href="${escapeHtml(log)}">View all email logs on the dashboard</a></p>`
  );
}

/**
 * Claims today's digest for this process: true for the one process (of any number sharing the database) whose
 * claim moved `last_run_at` forward by at least a day.
 */
export async function claimDailyDigest(db: Db, now = new Date()): Promise<boolean> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const result = await sql<{ claimed: boolean }>`
    insert into failed_email_digest_runs (id, last_run_at) values (true, ${now})
    on conflict (id) do update set last_run_at = excluded.last_run_at where failed_email_digest_runs.last_run_at <= ${dayAgo}
    returning true as claimed`.execute(db);
  return result.rows.length > 0;
}

/** Checks hourly whether a day has passed since the last digest, and runs it then. The timer never keeps the process alive. */
export function startFailedEmailsDigestTimer(deps: Pick<AppDeps, "db" | "env" | "log">, log: Logger, intervalMs = 3_600_000): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = (async () => {
      if (!(await claimDailyDigest(deps.db))) return;
      const run = await runFailedEmailsDigest(deps);
      if (run.failed_emails_by_tenancy.length > 0) log.info({ projects: run.failed_emails_by_tenancy.length, success: run.success }, "failed-emails digest sent");
    })()
      .catch((err: unknown) => log.warn({ err }, "failed-emails digest did not run; will retry at the next interval"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
