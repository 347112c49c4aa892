import { KnownErrors } from "@latchkey/protocol/errors";
import { exactAddressFirst, sameAuthAddress } from "./auth-address.js";
import { sql, type SqlBool, type Updateable } from "kysely";
import type { Db } from "../db/connect.js";
import type { ContactChannelsTable, UsersTable } from "../db/schema.js";
import type { ContactChannelRow } from "../db/rows.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { findProject, type ProjectRow } from "./projects.js";
import { grantSignUpPermissions } from "./permissions.js";
import { saveProfileImage, type ProfileImageChange } from "./profile-images.js";
import { revokeUserSessions } from "./sessions.js";
import { inTransaction as runInTransaction } from "./team-access.js";
import { grantDefaultTeamPermissions } from "./team-permission-checks.js";
import { findUserRow, type UserRow } from "./user-rows.js";
import { completeUserRecord } from "./user-read.js";
import { isRestrictedSql, type RestrictionPolicy } from "./user-restrictions.js";
import { batchingWebhookEvents, emitWebhookEvents, membershipEvent, teamEventData, userEventData, webhooksListening, writeWebhookEvents } from "./webhook-outbox.js";
import { flushTokenActivity } from "./token-activity.js";

export interface NewUser {
  displayName?: string | null;
  /** Checked by checkProfileImageUrl; an uploaded image is stored outside the row (services/profile-images.ts). */
  profileImage?: ProfileImageChange;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  /** Whether the primary email signs in (password, OTP); unique per project among auth emails. */
  primaryEmailAuthEnabled?: boolean;
  /** Already hashed (see crypto/passwords.ts). */
  passwordHash?: string | null;
  totpSecret?: Uint8Array | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  isAnonymous?: boolean;
  /** Held back by an administrator (services/user-restrictions.ts), with a reason shown to the user and private details. */
  restrictedByAdmin?: boolean;
  restrictedByAdminReason?: string | null;
  restrictedByAdminPrivateDetails?: string | null;
  /** ISO 3166-1 alpha-2, uppercase. */
  countryCode?: string | null;
  riskScores?: { bot: number; freeTrialAbuse: number };
  /** Provider accounts to link (sign-in and connected-account links), in the same transaction. */
  oauthAccounts?: Array<{ providerConfigId: string; accountId: string; email: string | null }>;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** An empty display name is stored (and so read back) as null, as the protocol does. */
const storedDisplayName = <T extends string | null | undefined>(name: T): T | null => (name === "" ? null : name);

/** Whether a database error is a unique-constraint violation (PostgreSQL and PGlite alike). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== "23505") return false;
  return !constraint || e.constraint === constraint || (e.message ?? "").includes(constraint);
}

/**
 * Creates a user in one transaction: the row, the primary email channel, and — when the project asks for
 * it — a personal team that becomes the selected team. A sign-in email taken by another account is
 * USER_EMAIL_ALREADY_EXISTS, decided by the database's unique index so concurrent sign-ups cannot both win.
 */
export async function createUser(db: Db, project: ProjectRow, input: NewUser): Promise<UserRow> {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  // Given a transaction (a flow that creates the user along with other writes), the user is part of it.
  const inTransaction = <T>(work: (trx: Db) => Promise<T>): Promise<T> => (db.isTransaction ? work(db) : db.transaction().execute(work));
  try {
    return await inTransaction((trx) => batchingWebhookEvents(trx, project.id, async () => {
      let user = await trx
        .insertInto("users")
        .values({
          project_id: project.id,
          display_name: storedDisplayName(input.displayName) ?? null,
          profile_image_url: null,
          password_hash: input.passwordHash ?? null,
          totp_secret: input.totpSecret ?? null,
          otp_auth_enabled: input.otpAuthEnabled ?? false,
          passkey_auth_enabled: input.passkeyAuthEnabled ?? false,
          is_anonymous: input.isAnonymous ?? false,
          client_metadata: json(input.clientMetadata),
          client_read_only_metadata: json(input.clientReadOnlyMetadata),
          server_metadata: json(input.serverMetadata),
          selected_team_id: null,
          restricted_by_admin: input.restrictedByAdmin ?? false,
          restricted_by_admin_reason: input.restrictedByAdmin ? (input.restrictedByAdminReason ?? null) : null,
          restricted_by_admin_private_details: input.restrictedByAdmin ? (input.restrictedByAdminPrivateDetails ?? null) : null,
          country_code: input.countryCode ?? null,
          risk_score_bot: input.riskScores?.bot ?? 0,
          risk_score_free_trial_abuse: input.riskScores?.freeTrialAbuse ?? 0,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // An uploaded image belongs to the user, so it is stored once the row exists.
      if (input.profileImage) {
        const profileImageUrl = await saveProfileImage(trx, project.id, { userId: user.id }, input.profileImage);
        user = await trx.updateTable("users").set({ profile_image_url: profileImageUrl }).where("id", "=", user.id).returningAll().executeTakeFirstOrThrow();
      }
      let primaryEmail: ContactChannelRow | null = null;
      if (input.primaryEmail) {
        primaryEmail = await trx
          .insertInto("contact_channels")
          .values({
            project_id: project.id,
            user_id: user.id,
            type: "email",
            value: input.primaryEmail,
            is_verified: input.primaryEmailVerified ?? false,
            is_primary: true,
            used_for_auth: input.primaryEmailAuthEnabled ?? true,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      }
      for (const link of input.oauthAccounts ?? []) {
        await trx
          .insertInto("oauth_accounts")
          .values({ project_id: project.id, user_id: user.id, provider_config_id: link.providerConfigId, provider_account_id: link.accountId, email: link.email })
          .execute();
      }
      await grantSignUpPermissions(trx, project.id, user.id, config.rbac.defaultPermissions.signUp);
      // `user.created` shows the user as the creating route answers (and the protocol's server sends it): before
      // the personal team, so without a selected team. Built from what was just written: the event costs no reads.
      const record = {
        user,
        primaryEmail,
        selectedTeam: null,
        oauthAccounts: (input.oauthAccounts ?? []).map((link) => ({ provider_config_id: link.providerConfigId, provider_account_id: link.accountId, email: link.email })),
      };
      if (config.teams.createPersonalTeamOnSignUp && !input.isAnonymous) {
        user = await createPersonalTeam(trx, project, user.id, storedDisplayName(input.displayName) ?? input.primaryEmail ?? null);
      }
      await emitWebhookEvents(trx, project.id, () => [{ type: "user.created", data: userEventData(project, record) }]);
      return user;
    }));
  } catch (error) {
    if (input.primaryEmail && isUniqueViolation(error, "contact_channels_auth_value")) {
      throw new KnownErrors.UserWithEmailAlreadyExists(input.primaryEmail);
    }
    if (isUniqueViolation(error, "oauth_accounts_sign_in")) throw new KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn();
    throw error;
  }
}

/** "<name or email>'s Team", or "Personal Team" for a user with neither, as the protocol names it. */
export function personalTeamName(ownerName: string | null): string {
  return ownerName ? `${ownerName}'s Team` : "Personal Team";
}

/**
 * The personal team of a user who just signed up (`create_team_on_sign_up`), inside the sign-up's
 * transaction: the user joins it with the creator default permissions and it becomes their selected team.
 * Returns the updated user row.
 */
export async function createPersonalTeam(trx: Db, project: ProjectRow, userId: string, ownerName: string | null): Promise<UserRow> {
  const team = await trx
    .insertInto("teams")
    .values({ project_id: project.id, display_name: personalTeamName(ownerName), profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx.insertInto("team_members").values({ project_id: project.id, team_id: team.id, user_id: userId, display_name: null, profile_image_url: null }).execute();
  await grantDefaultTeamPermissions(trx, project, team.id, userId, "creator");
  await emitWebhookEvents(trx, project.id, () => [{ type: "team.created", data: teamEventData(team) }, membershipEvent("team_membership.created", team.id, userId)]);
  return trx.updateTable("users").set({ selected_team_id: team.id }).where("id", "=", userId).returningAll().executeTakeFirstOrThrow();
}

/** The user that signs in with this email in the project, if any. */
export async function findUserByAuthEmail(db: Db, projectId: string, email: string): Promise<UserRow | undefined> {
  return userByAuthEmailQuery(db, projectId, email).selectAll("users").executeTakeFirst();
}

/**
 * `findUserByAuthEmail`'s query without its columns, for a caller that runs it inside a statement of its own and
 * selects what it needs (a password sign-in reads three of the user's twenty-one).
 */
export function userByAuthEmailQuery(db: Db, projectId: string, email: string) {
  return db
    .selectFrom("contact_channels")
    .innerJoin("users", "users.id", "contact_channels.user_id")
    .where("contact_channels.project_id", "=", projectId)
    .where("contact_channels.type", "=", "email")
    .where(sameAuthAddress("contact_channels.value", email))
    .where("contact_channels.used_for_auth", "=", true)
    .orderBy(exactAddressFirst("contact_channels.value", email), "desc")
    .limit(1);
}

/**
 * A change to a user; an omitted (undefined) field is left as it is, null clears it: a null primary email
 * removes the channel, a null password hash removes the password (either way every session ends), a null
 * TOTP secret disables multi-factor authentication.
 */
export interface UserUpdate extends Omit<NewUser, "isAnonymous"> {
  /** Must be a team the user is a member of. */
  selectedTeamId?: string | null;
  /** Only upgrades an anonymous user. */
  isAnonymous?: false;
  /**
   * A primary email replaced by another address starts unverified (the user changes their own), instead
   * of keeping the old address's verification (a server's correction). An address that is already one of
   * the user's verified channels stays verified either way.
   */
  newPrimaryEmailUnverified?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Updates a user in one transaction (the row is locked first, so concurrent updates apply one after the
 * other). Errors: USER_NOT_FOUND, TEAM_MEMBERSHIP_NOT_FOUND for a selected team the user is not in, and
 * USER_EMAIL_ALREADY_EXISTS when the primary email would sign in and another account signs in with it —
 * decided by the unique index `contact_channels_auth_value`, so concurrent updates cannot both win.
 */
export async function updateUser(db: Db, projectId: string, userId: string, update: UserUpdate): Promise<UserRow> {
  if (!UUID.test(userId)) throw new KnownErrors.UserNotFound();
  // The email whose sign-in uniqueness the transaction may violate, for the error message.
  const signIn: { email?: string } = {};
  try {
    return await db.transaction().execute(async (trx) => {
      // Deleting a team locks the team, then its members' rows (the cascade); selecting it locks in the
      // same order, so the two queue instead of deadlocking.
      if (update.selectedTeamId && UUID.test(update.selectedTeamId)) {
        await trx.selectFrom("teams").select("id").where("id", "=", update.selectedTeamId).forKeyShare().execute();
      }
      const current = await trx.selectFrom("users").selectAll().where("project_id", "=", projectId).where("id", "=", userId).forUpdate().executeTakeFirst();
      if (!current) throw new KnownErrors.UserNotFound();
      if (update.selectedTeamId) {
        const membership = await trx
          .selectFrom("team_members")
          .select("user_id")
          .where("project_id", "=", projectId)
          .where("team_id", "=", update.selectedTeamId)
          .where("user_id", "=", userId)
          // Held until commit, so leaving the team cannot slip in between this check and the write.
          .forKeyShare()
          .executeTakeFirst();
        if (!membership) throw new KnownErrors.TeamMembershipNotFound(update.selectedTeamId, userId);
      }

      const columns: Updateable<UsersTable> = {};
      if (update.displayName !== undefined) columns.display_name = storedDisplayName(update.displayName);
      if (update.profileImage) columns.profile_image_url = await saveProfileImage(trx, projectId, { userId }, update.profileImage);
      if (update.clientMetadata !== undefined) columns.client_metadata = json(update.clientMetadata);
      if (update.clientReadOnlyMetadata !== undefined) columns.client_read_only_metadata = json(update.clientReadOnlyMetadata);
      if (update.serverMetadata !== undefined) columns.server_metadata = json(update.serverMetadata);
      if (update.passwordHash !== undefined) columns.password_hash = update.passwordHash;
      if (update.totpSecret !== undefined) columns.totp_secret = update.totpSecret;
      if (update.otpAuthEnabled !== undefined) columns.otp_auth_enabled = update.otpAuthEnabled;
      if (update.passkeyAuthEnabled !== undefined) columns.passkey_auth_enabled = update.passkeyAuthEnabled;
      if (update.selectedTeamId !== undefined) columns.selected_team_id = update.selectedTeamId;
      if (update.isAnonymous === false) columns.is_anonymous = false;
      if (update.restrictedByAdmin !== undefined) columns.restricted_by_admin = update.restrictedByAdmin;
      // Lifting the restriction drops its reason and details: they only ever describe a restriction in force.
      if (update.restrictedByAdmin === false) {
        columns.restricted_by_admin_reason = null;
        columns.restricted_by_admin_private_details = null;
      } else {
        if (update.restrictedByAdminReason !== undefined) columns.restricted_by_admin_reason = update.restrictedByAdminReason;
        if (update.restrictedByAdminPrivateDetails !== undefined) columns.restricted_by_admin_private_details = update.restrictedByAdminPrivateDetails;
      }
      if (update.countryCode !== undefined) columns.country_code = update.countryCode;
      if (update.riskScores !== undefined) {
        columns.risk_score_bot = update.riskScores.bot;
        columns.risk_score_free_trial_abuse = update.riskScores.freeTrialAbuse;
      }
      const user = Object.keys(columns).length > 0 ? await trx.updateTable("users").set(columns).where("id", "=", userId).returningAll().executeTakeFirstOrThrow() : current;

      await updatePrimaryEmail(trx, projectId, userId, update, signIn);
      // SPEC §3: setting the password (or its hash) ends every session of the user.
      if (update.passwordHash !== undefined) await revokeUserSessions(trx, userId);
      // Turning passkey sign-in off removes the passkey, as the protocol's reference does: turning it on
      // again needs a new registration, not a credential that lay dormant.
      if (update.passkeyAuthEnabled === false) await trx.deleteFrom("passkey_credentials").where("user_id", "=", userId).execute();
      await emitWebhookEvents(trx, projectId, async () => [{ type: "user.updated", data: userEventData(await findProject(trx, projectId), await completeUserRecord(trx, user)) }]);
      return user;
    });
  } catch (error) {
    if (signIn.email !== undefined && isUniqueViolation(error, "contact_channels_auth_value")) throw new KnownErrors.UserWithEmailAlreadyExists(signIn.email);
    throw error;
  }
}

/**
 * Applies the primary-email part of an update. Before the statement that may break sign-in uniqueness it
 * records in `signIn.email` the address that will sign in, so the caller can name it in the error.
 */
async function updatePrimaryEmail(trx: Db, projectId: string, userId: string, update: UserUpdate, signIn: { email?: string }): Promise<void> {
  const { primaryEmail: email, primaryEmailVerified: verified, primaryEmailAuthEnabled: authEnabled } = update;
  if (email === undefined && verified === undefined && authEnabled === undefined) return;
  const channels = () => trx.selectFrom("contact_channels").selectAll().where("user_id", "=", userId).where("type", "=", "email");
  const primary = await channels().where("is_primary", "=", true).executeTakeFirst();
  const setChannel = (id: string, values: Updateable<ContactChannelsTable>) => trx.updateTable("contact_channels").set(values).where("id", "=", id).execute();

  if (email === null) {
    if (primary) await trx.deleteFrom("contact_channels").where("id", "=", primary.id).execute();
    return;
  }
  if (email === undefined || email === primary?.value) {
    // Only the flags of the current primary email change (the route refuses `true` flags without one).
    if (!primary) return;
    const signsIn = authEnabled ?? primary.used_for_auth;
    if (signsIn) signIn.email = primary.value;
    await setChannel(primary.id, { is_verified: verified ?? primary.is_verified, used_for_auth: signsIn });
    return;
  }

  // A new address. One of the user's other channels may already hold it: that one becomes primary.
  const existing = await channels().where("value", "=", email).executeTakeFirst();
  const signsIn = authEnabled ?? primary?.used_for_auth ?? false;
  if (signsIn) signIn.email = email;
  if (existing) {
    if (primary) await setChannel(primary.id, { is_primary: false });
    await setChannel(existing.id, { is_primary: true, is_verified: verified ?? existing.is_verified, used_for_auth: signsIn });
  } else if (primary) {
    // Replaced in place, as the protocol does: the channel keeps its verification unless the caller says otherwise.
    const keptVerification = update.newPrimaryEmailUnverified ? false : primary.is_verified;
    await setChannel(primary.id, { value: email, is_verified: verified ?? keptVerification, used_for_auth: signsIn });
  } else {
    await trx
      .insertInto("contact_channels")
      .values({ project_id: projectId, user_id: userId, type: "email", value: email, is_verified: verified ?? false, is_primary: true, used_for_auth: signsIn })
      .execute();
  }
}

/**
 * Deletes a user: their sessions, contact channels and team memberships go with them (foreign-key cascades).
 * With webhooks, the same transaction records `user.deleted` (with the teams the user was in, as the protocol
 * sends it) and a `team_membership.deleted` per membership the cascade removes. False when the project has no
 * such user.
 */
export async function deleteUser(db: Db, projectId: string, userId: string): Promise<boolean> {
  if (!UUID.test(userId)) return false;
  // Tokens this process gave and has not written yet are written first: the deletion counts the user's active days.
  await flushTokenActivity(db);
  return runInTransaction(db, async (trx) => {
    const listening = await webhooksListening(trx, projectId);
    // Read before the delete (the cascade takes the memberships), and only when someone listens.
    const teamIds = listening ? (await trx.selectFrom("team_members").select("team_id").where("user_id", "=", userId).execute()).map((m) => m.team_id) : [];
    const result = await trx.deleteFrom("users").where("project_id", "=", projectId).where("id", "=", userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    if (listening) {
      await writeWebhookEvents(trx, projectId, [
        ...teamIds.map((teamId) => membershipEvent("team_membership.deleted", teamId, userId)),
        { type: "user.deleted", data: { id: userId, teams: teamIds.map((id) => ({ id })) } },
      ]);
    }
    return true;
  });
}

export interface UserListOptions {
  /** The id of the first user of the page (the previous page's `nextCursor`). */
  cursor?: string;
  /** Page size; all users when omitted. */
  limit?: number;
  /** By sign-up time (the default) or by last activity, then id. */
  orderBy?: "signed_up_at" | "last_active_at";
  /** Newest first; otherwise oldest first. */
  desc?: boolean;
  /** Case-insensitive substring of the display name, an email address or the id. */
  query?: string;
  /** Anonymous users too (and so restricted ones, as the protocol has it). */
  includeAnonymous?: boolean;
  /** Only anonymous users. */
  onlyAnonymous?: boolean;
  /** Restricted users too (services/user-restrictions.ts): judged by `restrictionPolicy`. */
  includeRestricted?: boolean;
  restrictionPolicy: RestrictionPolicy;
  /** Only members of this team. */
  teamId?: string;
}

/**
 * A page of the project's users, in sign-up order unless asked otherwise. Keyset pagination on
 * (created_at or last_active_at, id): the cursor row's position is read in SQL, so microsecond timestamps
 * never round-trip through JavaScript dates. An unknown cursor gives an empty page, as the protocol's does.
 */
export async function listUsers(db: Db, projectId: string, options: UserListOptions): Promise<{ users: UserRow[]; nextCursor: string | null }> {
  const direction = options.desc ? "desc" : "asc";
  const column = options.orderBy === "last_active_at" ? "last_active_at" : "created_at";
  let query = db.selectFrom("users").selectAll("users").where("users.project_id", "=", projectId);
  if (options.onlyAnonymous) query = query.where("users.is_anonymous", "=", true);
  // Anonymous users come with restricted ones (they are restricted themselves); restricted ones may come alone.
  else if (!options.includeAnonymous) {
    query = query.where("users.is_anonymous", "=", false);
    if (!options.includeRestricted) query = query.where((eb) => eb.not(isRestrictedSql(options.restrictionPolicy)));
  }
  if (options.teamId) {
    // The team's members first (an array computed once), then those users by id: the cost follows the team's
    // size, where a semi-join may instead walk the project's users in order and probe each (1.6 s for a team of
    // 10,000 among a million users whose members signed up after most of them).
    query = query.where(sql<SqlBool>`users.id = any(array(${db.selectFrom("team_members").select("team_members.user_id").where("team_members.team_id", "=", options.teamId)}))`);
  }
  if (options.query) {
    const pattern = `%${options.query.replace(/[\\%_]/g, "\\$&")}%`;
    // An id's text is lowercase hex and dashes: a query with any other character cannot match one.
    const mayMatchId = /^[0-9a-f-]+$/i.test(options.query);
    if (options.query.length >= 3) {
      // The matches' ids from each source, each found through its trigram index (migration 0044) rather than
      // by reading every user of the project; the same users as the form below.
      const projectUsers = () => db.selectFrom("users").select("users.id").where("users.project_id", "=", projectId);
      let matches = projectUsers()
        .where("users.display_name", "ilike", pattern)
        .unionAll(db.selectFrom("contact_channels").select("contact_channels.user_id as id").where("contact_channels.type", "=", "email").where("contact_channels.value", "ilike", pattern));
      if (mayMatchId) matches = matches.unionAll(projectUsers().where(sql<SqlBool>`users.id::text ilike ${pattern}`));
      query = query.where("users.id", "in", matches);
    } else {
      // Shorter than a trigram: the page's users are found by reading the project's users in order.
      query = query.where((eb) =>
        eb.or([
          eb("users.display_name", "ilike", pattern),
          ...(mayMatchId ? [sql<SqlBool>`users.id::text ilike ${pattern}`] : []),
          eb.exists(
            eb
              .selectFrom("contact_channels")
              .select("contact_channels.id")
              .whereRef("contact_channels.user_id", "=", "users.id")
              .where("contact_channels.type", "=", "email")
              .where("contact_channels.value", "ilike", pattern),
          ),
        ]),
      );
    }
  }
  if (options.cursor) {
    const anchor = await db.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", options.cursor).executeTakeFirst();
    if (!anchor) return { users: [], nextCursor: null };
    const comparison = options.desc ? sql.raw("<=") : sql.raw(">=");
    const position = sql.raw(column);
    query = query.where(sql<SqlBool>`(users.${position}, users.id) ${comparison} (select anchor.${position}, anchor.id from users as anchor where anchor.id = ${anchor.id})`);
  }
  query = query.orderBy(`users.${column}`, direction).orderBy("users.id", direction);
  if (options.limit !== undefined) query = query.limit(options.limit + 1);
  const rows = await query.execute();
  if (options.limit === undefined || rows.length <= options.limit) return { users: rows, nextCursor: null };
  return { users: rows.slice(0, options.limit), nextCursor: rows[options.limit]!.id };
}
