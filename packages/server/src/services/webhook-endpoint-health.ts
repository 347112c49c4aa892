import { sql } from "kysely";
import type { Db } from "../db/connect.js";
import { sendEmail } from "../email/send.js";
import { projectAdminAddresses } from "./project-admins.js";
import { escapeHtml } from "../email/templates.js";
import type { AppDeps } from "./deps.js";
import { findProject, INTERNAL_PROJECT_ID } from "./projects.js";

/**
 * Svix's rule for endpoints that stopped answering (issue 18): one whose attempts have all failed for 5 days is
 * disabled, so the outbox stops growing for a receiver that is gone, and the project's admins get one mail
 * saying so. Re-enabling it (`disabled: false`) starts a fresh count.
 */
export const DISABLE_AFTER_FAILING_DAYS = 5;

export interface DisabledEndpoint {
  id: string;
  projectId: string;
  url: string;
}

/**
 * Notes an attempt's outcome on its endpoint, in the attempt's transaction: a success ends the run of failures;
 * a failure starts one or, once the run is 5 days old, disables the endpoint. Returns the endpoint when this
 * failure disabled it (only one attempt can: the update is guarded by `not disabled`).
 */
export async function recordEndpointOutcome(trx: Db, endpointId: string, succeeded: boolean): Promise<DisabledEndpoint | undefined> {
  if (succeeded) {
    await trx.updateTable("webhook_endpoints").set({ failing_since: null }).where("id", "=", endpointId).where("failing_since", "is not", null).execute();
    return undefined;
  }
  const { rows } = await sql<{ id: string; project_id: string; url: string; disabled: boolean }>`
    update webhook_endpoints
    set failing_since = coalesce(failing_since, now()),
        disabled = coalesce(failing_since, now()) <= now() - make_interval(days => ${DISABLE_AFTER_FAILING_DAYS}),
        updated_at = case when coalesce(failing_since, now()) <= now() - make_interval(days => ${DISABLE_AFTER_FAILING_DAYS}) then now() else updated_at end
    where id = ${endpointId} and not disabled
    returning id, project_id, url, disabled`.execute(trx);
  const row = rows[0];
  return row?.disabled ? { id: row.id, projectId: row.project_id, url: row.url } : undefined;
}

/** One mail to each admin (a member of the team owning the project) with an address. Failures are logged by sendEmail. */
export async function mailEndpointDisabled(deps: Pick<AppDeps, "db" | "env" | "log">, endpoint: DisabledEndpoint): Promise<void> {
  const [project, internal, owners] = await Promise.all([findProject(deps.db, endpoint.projectId), findProject(deps.db, INTERNAL_PROJECT_ID), projectAdminAddresses(deps.db, endpoint.projectId)]);
  if (!project || !internal) return;
  const subject = `Webhook endpoint disabled: ${project.display_name}`;
  const html =
    `<p>The webhook endpoint <strong>${escapeHtml(endpoint.url)}</strong> (${escapeHtml(endpoint.id)}) of the project ` +
    `<strong>${escapeHtml(project.display_name)}</strong> has failed every delivery for ${DISABLE_AFTER_FAILING_DAYS} days, so it has been disabled.</p>` +
    `<p>Events are no longer sent to it. Once it answers again, enable it (<code>disabled: false</code>) and resend what it missed.</p>`;
  for (const to of owners) await sendEmail(deps, internal, { to, subject, html });
}
