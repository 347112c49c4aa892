import { KnownErrors } from "@latchkey/protocol/errors";
import {
  NOTIFICATION_CATEGORIES,
  type NotificationCategory,
  type NotificationPreferenceRead,
} from "@latchkey/protocol/schemas";
import { sql } from "kysely";
import { hashSecret } from "../crypto/secrets.js";
import type { Db } from "../db/connect.js";
import { CODE_LENGTH, OTP_LENGTH, checkVerificationCode, createVerificationCode, type Executor } from "./verification-codes.js";

/**
 * Notification preferences (SPEC.md §3 "Notification category"): which categories of mail a user gets.
 * A row exists only where the user changed a category from its default; transactional mail is always on.
 */

/**
 * How long an unsubscribe link works. Mail is read (and its footer clicked) long after it was sent, so
 * this is far longer than any sign-in code; the code sweep deletes the link's row after it expires.
 */
export const UNSUBSCRIBE_LINK_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

export function categoryById(id: string): NotificationCategory | undefined {
  return NOTIFICATION_CATEGORIES.find((category) => category.id === id.toLowerCase());
}

/** The category a send names (`notification_category_name`), matched exactly as the protocol does. */
export function categoryByName(name: string): NotificationCategory | undefined {
  return NOTIFICATION_CATEGORIES.find((category) => category.name === name);
}

/** Every category with the user's choice (or the default). */
export async function listNotificationPreferences(db: Executor, projectId: string, userId: string): Promise<NotificationPreferenceRead[]> {
  const rows = await db
    .selectFrom("notification_preferences")
    .select(["notification_category_id", "enabled"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .execute();
  const stored = new Map(rows.map((row) => [row.notification_category_id, row.enabled]));
  return NOTIFICATION_CATEGORIES.map((category) => renderPreference(category, stored.get(category.id)));
}

/**
 * Stores a user's choice for a category. Returns undefined when the user is not in the project: the row
 * is written by one INSERT … SELECT from the user, so a user deleted meanwhile is never half-written.
 */
export async function setNotificationPreference(
  db: Executor,
  input: { projectId: string; userId: string; category: NotificationCategory; enabled: boolean },
): Promise<NotificationPreferenceRead | undefined> {
  // A category that cannot be disabled never stores `false`, whoever asks (the route refuses it first).
  const enabled = input.category.canDisable ? input.enabled : true;
  const row = await db
    .insertInto("notification_preferences")
    .columns(["project_id", "user_id", "notification_category_id", "enabled"])
    .expression((eb) =>
      eb
        .selectFrom("users")
        .select([
          "users.project_id",
          "users.id",
          sql<string>`${input.category.id}::uuid`.as("notification_category_id"),
          sql<boolean>`${enabled}`.as("enabled"),
        ])
        .where("users.project_id", "=", input.projectId)
        .where("users.id", "=", input.userId),
    )
    .onConflict((oc) => oc.columns(["user_id", "notification_category_id"]).doUpdateSet({ enabled, updated_at: new Date() }))
    .returning("enabled")
    .executeTakeFirst();
  return row ? renderPreference(input.category, row.enabled) : undefined;
}

/** Of these users, the ones who get the category's mail (their choice, or the category's default). */
export async function usersReceivingCategory(db: Executor, projectId: string, category: NotificationCategory, userIds: readonly string[]): Promise<Set<string>> {
  if (!category.canDisable) return new Set(userIds);
  const stored = new Map<string, boolean>();
  // Bounded IN lists: a send to every user of a big project must not build one enormous statement.
  for (let i = 0; i < userIds.length; i += 1000) {
    const rows = await db
      .selectFrom("notification_preferences")
      .select(["user_id", "enabled"])
      .where("project_id", "=", projectId)
      .where("notification_category_id", "=", category.id)
      .where("user_id", "in", userIds.slice(i, i + 1000))
      .execute();
    for (const row of rows) stored.set(row.user_id, row.enabled);
  }
  return new Set(userIds.filter((id) => stored.get(id) ?? category.defaultEnabled));
}

/**
 * A link that turns the category off for the user without signing in, as the protocol builds it:
 * `<public url>/api/v1/emails/unsubscribe-link?code=<code>`. The code is a verification code (one
 * mechanism for every code), checked but never used up, so following the link twice is harmless.
 */
export async function createUnsubscribeLink(
  db: Executor,
  input: { publicUrl: string; projectId: string; userId: string; category: NotificationCategory },
): Promise<string> {
  const created = await createVerificationCode(db, {
    projectId: input.projectId,
    purpose: "unsubscribe",
    kind: "link",
    data: { user_id: input.userId, notification_category_id: input.category.id },
    expiresInMs: UNSUBSCRIBE_LINK_LIFETIME_MS,
  });
  // Appended, not resolved: a public URL with a path prefix (behind a proxy) keeps its prefix.
  return `${input.publicUrl.replace(/\/+$/, "")}/api/v1/emails/unsubscribe-link?code=${created.code}`;
}

/**
 * Follows an unsubscribe link: VERIFICATION_CODE_NOT_FOUND / _EXPIRED for a bad or old link. The link
 * carries no project id (the protocol's link has only the code), so the code's row names the project.
 */
export async function unsubscribeWithCode(db: Db, code: string): Promise<void> {
  const projectId = await projectOfUnsubscribeCode(db, code);
  if (!projectId) throw new KnownErrors.VerificationCodeNotFound();
  const data = (await checkVerificationCode(db, { projectId, purpose: "unsubscribe", code })) as { user_id: string; notification_category_id: string };
  const category = categoryById(data.notification_category_id);
  // The user may have been deleted since the mail was sent: then there is nothing left to unsubscribe.
  if (category) await setNotificationPreference(db, { projectId, userId: data.user_id, category, enabled: false });
}

async function projectOfUnsubscribeCode(db: Db, code: string): Promise<string | undefined> {
  if (typeof code !== "string" || code.length !== CODE_LENGTH) return undefined;
  const row = await db
    .selectFrom("verification_codes")
    .select("project_id")
    .where("purpose", "=", "unsubscribe")
    .where("nonce_hash", "=", hashSecret(code.slice(OTP_LENGTH).toLowerCase()))
    .executeTakeFirst();
  return row?.project_id;
}

function renderPreference(category: NotificationCategory, stored: boolean | undefined): NotificationPreferenceRead {
  return {
    notification_category_id: category.id,
    notification_category_name: category.name,
    enabled: category.canDisable ? (stored ?? category.defaultEnabled) : true,
    can_disable: category.canDisable,
  };
}
