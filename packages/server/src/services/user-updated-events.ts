import type { Db } from "../db/connect.js";
import { findProject } from "./projects.js";
import { completeUserRecord } from "./user-read.js";
import { findUserRow } from "./user-rows.js";
import { userEventData, webhooksListening, writeWebhookEvents } from "./webhook-outbox.js";

/**
 * `user.updated` for changes made outside the user update route (issue 18): a contact channel added, changed,
 * verified or removed; a first password or a reset one; an anonymous user signing up; a provider account linked
 * or unlinked; OTP or passkey sign-in turned on by their first use. The reference sends `user.updated` whenever
 * the user's server read shape changes through its users CRUD; here each such path takes the shape before its
 * change and after it, in its transaction, and writes the event when they differ — so a change the shape does
 * not show (a changed password: `has_password` stays true) sends nothing. Only when the project listens: the
 * two reads are skipped otherwise.
 */

export interface UserReadWatch {
  trx: Db;
  projectId: string;
  userId: string;
  /** The shape before the change as compared, or undefined when nobody listens (or there is no such user). */
  before: string | undefined;
}

/**
 * Takes the shape before the change. Call it after the path locks the user's row (when it does), so no other
 * change lands between this read and the path's own.
 */
export async function watchUserRead(trx: Db, projectId: string, userId: string): Promise<UserReadWatch> {
  const before = (await webhooksListening(trx, projectId)) ? await comparableRead(trx, projectId, userId) : undefined;
  return { trx, projectId, userId, before: before?.compared };
}

/** Writes `user.updated` with the shape after the change, in the same transaction, when it differs from before. */
export async function emitIfUserReadChanged(watch: UserReadWatch): Promise<void> {
  if (watch.before === undefined) return;
  const after = await comparableRead(watch.trx, watch.projectId, watch.userId);
  if (!after || after.compared === watch.before) return;
  await writeWebhookEvents(watch.trx, watch.projectId, [{ type: "user.updated", data: after.data }]);
}

/** Runs `change` between the two reads. */
export async function emittingUserUpdated<T>(trx: Db, projectId: string, userId: string, change: () => Promise<T>): Promise<T> {
  const watch = await watchUserRead(trx, projectId, userId);
  const result = await change();
  await emitIfUserReadChanged(watch);
  return result;
}

async function comparableRead(trx: Db, projectId: string, userId: string): Promise<{ data: unknown; compared: string } | undefined> {
  const user = await findUserRow(trx, projectId, userId);
  if (!user) return undefined;
  const record = await completeUserRecord(trx, user);
  const data = userEventData(await findProject(trx, projectId), record) as Record<string, unknown>;
  // Activity is not an update (the reference sends nothing for it), whatever else the path touched.
  const { last_active_at_millis: _activity, ...compared } = data;
  return { data, compared: JSON.stringify(compared) };
}
