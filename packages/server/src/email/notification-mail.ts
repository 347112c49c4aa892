import type { NotificationCategory } from "@latchkey/protocol/schemas";
import type { AppDeps } from "../services/deps.js";
import { createUnsubscribeLink, usersReceivingCategory } from "../services/notification-preferences.js";
import type { ProjectRow } from "../services/projects.js";
import { sendEmail } from "./send.js";

/** A user a notification is addressed to, with their primary email (null when they have none). */
export interface NotificationRecipient {
  userId: string;
  email: string | null;
}

export interface NotificationMail {
  category: NotificationCategory;
  subject: string;
  html: string;
}

/** Why a recipient got no mail; absent for those it was handed to delivery for. */
export type SkipReason = "no_primary_email" | "category_disabled";

/** Sends this many mails at once: enough to overlap SMTP round trips, few enough not to flood the relay. */
const PARALLEL_SENDS = 4;

/**
 * Sends caller-written mail of a category to users, honouring their preferences: a user who turned the
 * category off gets nothing, and mail of a category that can be turned off carries a personal
 * unsubscribe link. Delivery failures are recorded by `sendEmail` and never stop the other recipients.
 */
export async function sendNotificationMail(
  deps: Pick<AppDeps, "db" | "env" | "log">,
  project: ProjectRow,
  recipients: readonly NotificationRecipient[],
  mail: NotificationMail,
): Promise<Map<string, SkipReason>> {
  const skipped = new Map<string, SkipReason>();
  const receiving = await usersReceivingCategory(deps.db, project.id, mail.category, recipients.map((r) => r.userId));
  const queue: { userId: string; email: string }[] = [];
  for (const recipient of recipients) {
    if (!recipient.email) skipped.set(recipient.userId, "no_primary_email");
    else if (!receiving.has(recipient.userId)) skipped.set(recipient.userId, "category_disabled");
    else queue.push({ userId: recipient.userId, email: recipient.email });
  }

  const sendOne = async ({ userId, email }: { userId: string; email: string }) => {
    const unsubscribeLink = mail.category.canDisable
      ? await createUnsubscribeLink(deps.db, { publicUrl: deps.env.publicUrl, projectId: project.id, userId, category: mail.category })
      : undefined;
    await sendEmail(deps, project, { to: email, subject: mail.subject, html: mail.html, unsubscribeLink, userId });
  };
  let next = 0;
  const worker = async () => {
    while (next < queue.length) await sendOne(queue[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, queue.length) }, worker));
  return skipped;
}
