import { sendEmail } from "../email/send.js";
import { projectAdminAddresses } from "./project-admins.js";
import { escapeHtml } from "../email/templates.js";
import type { AppDeps } from "./deps.js";
import { findProject, INTERNAL_PROJECT_ID } from "./projects.js";

/**
 * Svix's rule for endpoints that stopped answering (issue 18): one whose attempts have all failed for 5 days is
 * disabled, so the outbox stops growing for a receiver that is gone, and the project's admins get one mail
 * saying so. Re-enabling it (`disabled: false`) starts a fresh count. The worker notes each batch's outcomes on
 * the endpoints as it records the attempts (services/webhook-attempt-records.ts).
 */
export const DISABLE_AFTER_FAILING_DAYS = 5;

export interface DisabledEndpoint {
  id: string;
  projectId: string;
  url: string;
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
