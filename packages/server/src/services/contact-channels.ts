import { HTTPException } from "hono/http-exception";
import { sameAuthAddress } from "./auth-address.js";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { ContactChannelRead, ContactChannelType } from "@latchkey/protocol/schemas";
import type { Selectable, Transaction } from "kysely";
import type { Db } from "../db/connect.js";
import type { ContactChannelsTable, Database } from "../db/schema.js";
import { emitIfUserReadChanged, watchUserRead } from "./user-updated-events.js";
import { isUniqueViolation } from "./users.js";
import type { Executor } from "./verification-codes.js";

/**
 * A user's contact channels (SPEC.md §3 "Contact channel"): email addresses, at most one of them primary
 * (the user's primary email is read from it, see user-read.ts), any of them usable to sign in.
 *
 * Three rules are the database's to keep, so concurrent requests cannot break them:
 * - `contact_channels_one_primary`: one primary channel per user. Every write to a user's channels first
 *   locks the user's row, so "demote the old primary, promote the new one" never interleaves with another.
 * - `contact_channels_auth_value`: a value signs in to one account of a project. Checked first for a clear
 *   answer; a concurrent writer that slips past the check is stopped by the index, and its violation is
 *   answered with the same CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE.
 * - `unique (user_id, type, value)`: a user has an address once. Checked before the rule above, so a user
 *   adding an address they already sign in with hears "Contact channel already exists", as the protocol
 *   answers, not that someone else uses it.
 */

export type ContactChannelRow = Selectable<ContactChannelsTable>;

const AUTH_VALUE_INDEX = "contact_channels_auth_value";
// The name PostgreSQL gives `unique (user_id, type, value)` in migrations/0002_users_sessions.sql.
const SAME_USER_VALUE_INDEX = "contact_channels_user_id_type_value_key";

export function renderContactChannel(row: ContactChannelRow): ContactChannelRead {
  return {
    id: row.id,
    user_id: row.user_id,
    type: row.type,
    value: row.value,
    is_primary: row.is_primary,
    is_verified: row.is_verified,
    used_for_auth: row.used_for_auth,
  };
}

/** The project's channels, of one user and/or with one id when given, oldest first. */
export async function listContactChannels(db: Db, projectId: string, filter: { userId?: string; channelId?: string }): Promise<ContactChannelRow[]> {
  let query = db.selectFrom("contact_channels").selectAll().where("project_id", "=", projectId);
  if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
  if (filter.channelId !== undefined) query = query.where("id", "=", filter.channelId);
  return query.orderBy("created_at").orderBy("id").execute();
}

export async function findContactChannel(db: Executor, projectId: string, userId: string, channelId: string): Promise<ContactChannelRow | undefined> {
  return db
    .selectFrom("contact_channels")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("id", "=", channelId)
    .executeTakeFirst();
}

/** The user's primary email channel (the user's `primary_email`), if any. */
export async function findPrimaryEmailChannel(db: Executor, userId: string): Promise<ContactChannelRow | undefined> {
  return db.selectFrom("contact_channels").selectAll().where("user_id", "=", userId).where("type", "=", "email").where("is_primary", "=", true).executeTakeFirst();
}

export interface NewContactChannel {
  userId: string;
  type: ContactChannelType;
  value: string;
  usedForAuth: boolean;
  isPrimary?: boolean;
  /** Only servers may create a channel that is already verified. */
  isVerified?: boolean;
}

/** Adds a channel to a user. USER_ID_DOES_NOT_EXIST for an unknown user. */
export async function createContactChannel(db: Db, projectId: string, input: NewContactChannel): Promise<ContactChannelRow> {
  return withChannelErrors(input.type, () => input.value, () =>
    db.transaction().execute(async (trx) => {
      if (!(await lockUser(trx, projectId, input.userId))) throw new KnownErrors.UserIdDoesNotExist(input.userId);
      await assertUserHasNoSuchValue(trx, input.userId, input.type, input.value);
      if (input.usedForAuth) await assertAuthValueFree(trx, projectId, input.type, input.value);
      // A new primary email changes the user's read shape (primary_email…): user.updated.
      const watch = await watchUserRead(trx, projectId, input.userId);
      if (input.isPrimary) await demotePrimary(trx, input.userId, input.type);
      const created = await trx
        .insertInto("contact_channels")
        .values({
          project_id: projectId,
          user_id: input.userId,
          type: input.type,
          value: input.value,
          is_verified: input.isVerified ?? false,
          is_primary: input.isPrimary ?? false,
          used_for_auth: input.usedForAuth,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await emitIfUserReadChanged(watch);
      return created;
    }),
  );
}

export interface ContactChannelPatch {
  value?: string;
  usedForAuth?: boolean;
  isPrimary?: boolean;
  isVerified?: boolean;
}

/**
 * Changes a channel; undefined when the user has no such channel. A new value is unverified (a server may
 * say otherwise in the same request); making a channel primary demotes the user's previous primary.
 */
export async function updateContactChannel(
  db: Db,
  projectId: string,
  userId: string,
  channelId: string,
  patch: ContactChannelPatch,
): Promise<ContactChannelRow | undefined> {
  // The value the request would give the channel, for the error message of a violation found late.
  let attemptedValue = patch.value;
  return withChannelErrors("email", () => attemptedValue, () =>
    db.transaction().execute(async (trx) => {
      if (!(await lockUser(trx, projectId, userId))) return undefined;
      const current = await findContactChannel(trx, projectId, userId, channelId);
      if (!current) return undefined;
      const value = patch.value ?? current.value;
      attemptedValue = value;
      const valueChanged = value !== current.value;
      if (valueChanged) await assertUserHasNoSuchValue(trx, userId, current.type, value);
      const usedForAuth = patch.usedForAuth ?? current.used_for_auth;
      if (usedForAuth && (valueChanged || !current.used_for_auth)) await assertAuthValueFree(trx, projectId, current.type, value, current.id);
      const watch = await watchUserRead(trx, projectId, userId);
      if (patch.isPrimary && !current.is_primary) await demotePrimary(trx, userId, current.type);
      const updated = await trx
        .updateTable("contact_channels")
        .set({
          value,
          used_for_auth: usedForAuth,
          is_primary: patch.isPrimary ?? current.is_primary,
          // Whoever proved they read the old address has not proved anything about the new one.
          is_verified: patch.isVerified ?? (valueChanged ? false : current.is_verified),
        })
        .where("id", "=", current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await emitIfUserReadChanged(watch);
      return updated;
    }),
  );
}

/** Removes a channel; false when the user has no such channel. */
export async function deleteContactChannel(db: Db, projectId: string, userId: string, channelId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const watch = await watchUserRead(trx, projectId, userId);
    const deleted = await trx
      .deleteFrom("contact_channels")
      .where("project_id", "=", projectId)
      .where("user_id", "=", userId)
      .where("id", "=", channelId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await emitIfUserReadChanged(watch);
    return true;
  });
}

/** Serializes writes to one user's channels (see the header); false when the user does not exist. */
async function lockUser(trx: Transaction<Database>, projectId: string, userId: string): Promise<boolean> {
  // NO KEY UPDATE: enough to exclude other channel writers, while foreign-key checks (KEY SHARE) still pass.
  const user = await trx.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", userId).forNoKeyUpdate().executeTakeFirst();
  return user !== undefined;
}

async function assertUserHasNoSuchValue(trx: Executor, userId: string, type: ContactChannelType, value: string): Promise<void> {
  const existing = await trx.selectFrom("contact_channels").select("id").where("user_id", "=", userId).where("type", "=", type).where("value", "=", value).executeTakeFirst();
  if (existing) throw contactChannelExists();
}

async function assertAuthValueFree(trx: Executor, projectId: string, type: ContactChannelType, value: string, exceptChannelId?: string): Promise<void> {
  let query = trx
    .selectFrom("contact_channels")
    .select("id")
    .where("project_id", "=", projectId)
    .where("type", "=", type)
    .where(sameAuthAddress("value", value))
    .where("used_for_auth", "=", true);
  if (exceptChannelId) query = query.where("id", "!=", exceptChannelId);
  if (await query.executeTakeFirst()) throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse(type, value);
}

async function demotePrimary(trx: Executor, userId: string, type: ContactChannelType): Promise<void> {
  await trx.updateTable("contact_channels").set({ is_primary: false }).where("user_id", "=", userId).where("type", "=", type).where("is_primary", "=", true).execute();
}

/** Runs a write, answering a unique violation of the channel rules with its known error (or a plain 400). */
async function withChannelErrors<T>(type: ContactChannelType, value: () => string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error, AUTH_VALUE_INDEX)) throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse(type, value());
    if (isUniqueViolation(error, SAME_USER_VALUE_INDEX)) throw contactChannelExists();
    throw error;
  }
}

// The protocol has no known error for a user adding the same address twice; it is a plain 400.
const contactChannelExists = () => new HTTPException(400, { message: "Contact channel already exists" });
