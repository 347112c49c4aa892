import type { NotificationCategory } from "@latchkey/protocol/schemas";
import type { AppDeps } from "../services/deps.js";
import { createUnsubscribeLink, usersReceivingCategory } from "../services/notification-preferences.js";
import type { ProjectRow } from "../services/projects.js";
import { errorText, sendEmail } from "./send.js";

/** A user a notification is addressed to, with their primary email (null when they have none). */
export interface NotificationRecipient {
  userId: string;
  email: string | null;
  displayName?: string | null;
}

/** Mail the caller wrote: the same HTML for everyone. */
export interface WrittenNotificationMail {
  category: NotificationCategory;
  subject: string;
  html: string;
}

/**
 * Mail rendered per recipient (a TSX template or draft): `render` throws EMAIL_RENDERING_ERROR when it cannot,
 * which is recorded as that recipient's failed send.
 */
export interface RenderedNotificationMail {
  category: NotificationCategory;
  render(recipient: NotificationRecipient, unsubscribeLink: string | undefined): Promise<{ subject: string; html: string; text: string }>;
}

export type NotificationMail = WrittenNotificationMail | RenderedNotificationMail;

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
  const queue: (NotificationRecipient & { email: string })[] = [];
  for (const recipient of recipients) {
    if (!recipient.email) skipped.set(recipient.userId, "no_primary_email");
    else if (!receiving.has(recipient.userId)) skipped.set(recipient.userId, "category_disabled");
    else queue.push({ ...recipient, email: recipient.email });
  }

  const sendOne = async (recipient: NotificationRecipient & { email: string }) => {
    const { userId, email } = recipient;
    const unsubscribeLink = mail.category.canDisable
      ? await createUnsubscribeLink(deps.db, { publicUrl: deps.env.publicUrl, projectId: project.id, userId, category: mail.category })
      : undefined;
    if ("html" in mail) {
      await sendEmail(deps, project, { to: email, subject: mail.subject, html: mail.html, unsubscribeLink, userId });
      return;
    }
    try {
      const rendered = await mail.render(recipient, unsubscribeLink);
      await sendEmail(deps, project, { to: email, rendered, unsubscribeLink, userId });
    } catch (err) {
      await sendEmail(deps, project, { to: email, subject: "", renderingError: errorText(err), userId });
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < queue.length) await sendOne(queue[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, queue.length) }, worker));
  return skipped;
}
