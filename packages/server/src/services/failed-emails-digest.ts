import { sql } from "kysely";
import type { Logger } from "pino";
import type { Db } from "../db/connect.js";
import { escapeHtml } from "../email/templates.js";
import { sendEmail } from "../email/send.js";
import type { AppDeps } from "./deps.js";
import { projectAdminAddresses } from "./project-admins.js";
import { findProject, INTERNAL_PROJECT_ID } from "./projects.js";

/**
 * The failed-emails digest (issue 19): each project's admins get one mail listing the sends that failed since
 * the digest before (the first digest looks back a day). Run by `POST /internal/failed-emails-digest` for an
 * outside scheduler, and daily by every server process (`startFailedEmailsDigestTimer`), which claim the day
 * so that only one of them runs it. Mail goes from the internal project, like the rest of Latchkey's own mail.
 */

const DAY_MS = 86_400_000;
/** Failures listed one by one in a digest; the rest are counted. */
const LISTED_FAILURES = 20;

export interface ProjectDigest {
  projectId: string;
  failedEmails: number;
  /** The admins the digest went to (in a dry run: would go to). */
  recipients: string[];
}

export async function runFailedEmailsDigest(
  deps: Pick<AppDeps, "db" | "env" | "log">,
  options: { now?: Date; dryRun?: boolean } = {},
): Promise<ProjectDigest[]> {
  const now = options.now ?? new Date();
  const firstSince = new Date(now.getTime() - DAY_MS);
  const candidates = await deps.db
    .selectFrom("sent_emails as s")
    .leftJoin("failed_email_digests as d", "d.project_id", "s.project_id")
    .select("s.project_id")
    .where("s.error", "is not", null)
    .where("s.sent_at", "<=", now)
    .where((eb) => eb("s.sent_at", ">", eb.fn.coalesce("d.covered_until", sql<Date>`${firstSince}`)))
    .groupBy("s.project_id")
    .orderBy("s.project_id")
    .execute();
  const digests: ProjectDigest[] = [];
  for (const { project_id: projectId } of candidates) {
    const digest = await digestOf(deps, projectId, now, firstSince, options.dryRun ?? false);
    if (digest) digests.push(digest);
  }
  return digests;
}

interface Failure {
  recipient: string;
  subject: string;
  error: string | null;
  sent_at: Date;
}

/** One project's digest: claims its span under a row lock, then mails the admins after the claim commits. */
async function digestOf(deps: Pick<AppDeps, "db" | "env" | "log">, projectId: string, now: Date, firstSince: Date, dryRun: boolean): Promise<ProjectDigest | undefined> {
  const claimed = await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto("failed_email_digests").values({ project_id: projectId, covered_until: firstSince }).onConflict((oc) => oc.column("project_id").doNothing()).execute();
    const { covered_until: since } = await trx
      .selectFrom("failed_email_digests")
      .select("covered_until")
      .where("project_id", "=", projectId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const failures = trx
      .selectFrom("sent_emails")
      .where("project_id", "=", projectId)
      .where("error", "is not", null)
      .where("sent_at", ">", since)
      .where("sent_at", "<=", now);
    const [{ count }, listed] = await Promise.all([
      failures.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
      failures.select(["recipient", "subject", "error", "sent_at"]).orderBy("sent_at", "desc").limit(LISTED_FAILURES).execute(),
    ]);
    if (Number(count) === 0) return undefined;
    if (!dryRun) await trx.updateTable("failed_email_digests").set({ covered_until: now }).where("project_id", "=", projectId).execute();
    return { count: Number(count), listed };
  });
  if (!claimed) return undefined;
  const [project, internal, recipients] = await Promise.all([findProject(deps.db, projectId), findProject(deps.db, INTERNAL_PROJECT_ID), projectAdminAddresses(deps.db, projectId)]);
  if (!project || !internal) return undefined;
  if (!dryRun) {
    const subject = `${claimed.count} failed ${claimed.count === 1 ? "email" : "emails"} in ${project.display_name}`;
    const html = digestHtml(project.display_name, claimed.count, claimed.listed);
    // Failures of these sends are recorded like any other (and reported by the internal project's next digest).
    for (const to of recipients) await sendEmail(deps, internal, { to, subject, html });
  }
  return { projectId, failedEmails: claimed.count, recipients };
}

function digestHtml(projectName: string, count: number, listed: Failure[]): string {
  const rows = listed
    .map(
      (f) =>
        `<tr><td>${escapeHtml(f.sent_at.toISOString())}</td><td>${escapeHtml(f.recipient)}</td><td>${escapeHtml(f.subject)}</td><td>${escapeHtml(f.error ?? "")}</td></tr>`,
    )
    .join("");
  const more = count > listed.length ? `<p>…and ${count - listed.length} more. The sent-email log of the project lists them all.</p>` : "";
  return (
    `<p>Since the last digest, ${count} ${count === 1 ? "email" : "emails"} of the project <strong>${escapeHtml(projectName)}</strong> could not be delivered.</p>` +
    `<table><thead><tr><th>Sent at (UTC)</th><th>To</th><th>Subject</th><th>Error</th></tr></thead><tbody>${rows}</tbody></table>${more}` +
    `<p>Check the project's email server settings, then send again what matters.</p>`
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
      const digests = await runFailedEmailsDigest(deps);
      if (digests.length > 0) log.info({ projects: digests.length }, "failed-emails digest sent");
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
