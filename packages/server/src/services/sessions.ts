import { KnownErrors } from "@latchkey/protocol/errors";
import { sql, type InferResult } from "kysely";
import { sessionCacheKeyOfHex, type Caches } from "../cache/caches.js";
import type { Db } from "../db/connect.js";
import { preparedStatement } from "../db/prepared-statements.js";
import { CompiledOnce } from "../db/compiled-once.js";
import type { ProjectRow, SessionRow } from "../db/rows.js";
import type { Env } from "../env.js";
import type { UserRecord } from "./user-read.js";
import { restrictedReasonOf, restrictionPolicy, type RestrictionPolicy } from "./user-restrictions.js";
import { signAccessToken, type AccessTokenDialect } from "../crypto/access-tokens.js";
import { requestScopeOf } from "../db/request-scope.js";
import { hashFromHex, hashSecret, hashSecretHex, randomSecret } from "../crypto/secrets.js";
import { currentRequestDevice, type SessionDevice } from "./session-device.js";
import { noteAccessToken } from "./token-activity.js";
import { settleStatement, type SettleWithin } from "./auth-throttle.js";

export type { SessionRow };

/** SPEC §6/§9: a server-created session lasts a year unless told otherwise. */
export const DEFAULT_SESSION_LIFETIME_MS = 31_536_000_000;
// last_used_at / last_active_at are written at most this often, so reads stay reads.
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

export interface NewSession {
  /** The project's row (from the project cache): its config says whether the user is restricted. */
  project: Pick<ProjectRow, "id" | "config_override">;
  userId: string;
  expiresInMillis?: number;
  isImpersonation?: boolean;
  /** Where the session is made from; by default the device of the request being handled. */
  device?: SessionDevice;
  /** A caller's statement run in the same round trip (a sign-in's brute-force counters, services/auth-throttle.ts). */
  alongside?: SettleWithin;
}

/** Starts a session (`sessionStatement`, below) and says what its first access token tells of the user. */
async function createSession(db: Db, session: NewSession) {
  const refreshToken = randomSecret(256);
  const device = session.device ?? currentRequestDevice(db);
  // Signing in is activity (as the reference records it with every access token it makes); an admin acting as
  // the user is not the user's.
  const isImpersonation = session.isImpersonation ?? false;
  const { alongside } = session;
  const values: SessionStatementValues = {
    projectId: session.project.id,
    userId: session.userId,
    refreshTokenHash: hashSecret(refreshToken),
    isImpersonation,
    expiresAt: new Date(Date.now() + (session.expiresInMillis ?? DEFAULT_SESSION_LIFETIME_MS)),
    ip: device.ip ?? null,
    userAgent: device.userAgent ?? null,
    countryCode: device.countryCode ?? null,
  };
  // The caller's statement's values, each its own parameter.
  alongside?.values.forEach((value, i) => (values[`alongside${i}`] = value));
  const { rows } = await sessionStatement.run(db, alongside ? `alongside ${alongside.shape}` : "alone", values, (slots) => sessionStatementOf(db, slots, alongside?.shape));
  alongside?.ran();
  const row = rows[0];
  // The join finds no user only if it was deleted meanwhile: an unknown failure, as before the statement was compiled once.
  if (!row) throw new Error("The new session's user was deleted meanwhile.");
  const { display_name, selected_team_id, is_anonymous, user_created_at, restricted_by_admin, totp_secret, primary_email, primary_email_verified } = row;
  const user = { id: session.userId, display_name, selected_team_id, is_anonymous, created_at: user_created_at, restricted_by_admin, totp_secret };
  const primaryEmail = primary_email === null ? null : { value: primary_email, is_verified: primary_email_verified ?? false };
  return { session: { id: row.id, project_id: session.project.id, is_impersonation: isImpersonation }, refreshToken, user, primaryEmail };
}

/** What a sign-in tells its caller of the session it made: its id (the access token's `refresh_token_id`). */
export type NewSessionRow = Pick<SessionRow, "id" | "project_id" | "is_impersonation">;

interface SessionStatementValues extends Record<string, unknown> {
  projectId: string;
  userId: string;
  refreshTokenHash: Uint8Array;
  isImpersonation: boolean;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  countryCode: string | null;
}

/**
 * Starts a session (a random refresh token, stored only as its hash), records the user's activity and reads
 * what the first access token tells of the user, in one statement: a sign-in pays one round trip for all
 * three instead of three (four with the caller's `alongside`). Built once per shape (db/compiled-once.ts).
 */
const sessionStatement = new CompiledOnce<SessionStatementValues, SessionStatementRow>();

function sessionStatementOf(db: Db, v: SessionStatementValues, alongsideShape: string | undefined) {
  const query = db
    .with("session", (qb) =>
      qb
        .insertInto("sessions")
        .values({
          project_id: v.projectId,
          user_id: v.userId,
          refresh_token_hash: v.refreshTokenHash,
          is_impersonation: v.isImpersonation,
          expires_at: v.expiresAt,
          // Making the session is its first use.
          last_used_ip: v.ip,
          created_user_agent: v.userAgent,
          last_used_user_agent: v.userAgent,
          last_used_country_code: v.countryCode,
        })
        // Its id and user: the caller knows the rest, and need not read back (nor parse) the row's other columns.
        .returning(["id", "user_id"]),
    )
    .with("activity", (qb) =>
      qb
        .updateTable("users")
        .set({ last_active_at: sql<Date>`now()` })
        .where("id", "=", v.userId)
        .where("last_active_at", "<", sql<Date>`now() - ${`${ACTIVITY_WRITE_INTERVAL_MS} milliseconds`}::interval`)
        .where(sql<boolean>`not ${v.isImpersonation}::boolean`),
    );
  const withAlongside = alongsideShape === undefined ? query : (query.with("alongside", (() => settleStatement(alongsideShape, (i) => v[`alongside${i}`])) as never) as unknown as typeof query);
  return (
    withAlongside
      // Runs on the statement's snapshot: the user as it was before the activity update, which the token does not show.
      .selectFrom("session")
      .innerJoin("users", "users.id", "session.user_id")
      .leftJoin("contact_channels", (join) =>
        join.onRef("contact_channels.user_id", "=", "users.id").on("contact_channels.is_primary", "=", true).on("contact_channels.type", "=", "email"),
      )
      .select([
        "session.id",
        "users.display_name",
        "users.selected_team_id",
        "users.is_anonymous",
        "users.created_at as user_created_at",
        "users.restricted_by_admin",
        "users.totp_secret",
        "contact_channels.value as primary_email",
        "contact_channels.is_verified as primary_email_verified",
      ])
      .modifyEnd(preparedStatement)
  );
}

type SessionStatementRow = InferResult<ReturnType<typeof sessionStatementOf>>[number];

/** Moves the user's last activity to `now`, unless it was recorded within the last minute (reads stay reads). */
async function markUserActive(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({ last_active_at: now })
    .where("id", "=", userId)
    .where("last_active_at", "<", new Date(now.getTime() - ACTIVITY_WRITE_INTERVAL_MS))
    .execute();
}

/** The live session a refresh token belongs to, or REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED. */
export async function sessionOfRefreshToken(db: Db, projectId: string, refreshToken: string): Promise<SessionRow> {
  // Lookup by hash is an index seek on a SHA-256 of a 256-bit random value: nothing to learn from timing.
  const row = await db
    .selectFrom("sessions")
    .selectAll()
    .where("refresh_token_hash", "=", hashSecret(refreshToken))
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  if (!row || (row.expires_at && row.expires_at.getTime() <= Date.now())) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  return row;
}

/** The same through the session cache (cache/caches.ts): a refresh needs no query once its session is cached. */
export async function findCachedSession(db: Db, caches: Caches, projectId: string, refreshToken: string): Promise<SessionRow> {
  const hex = hashSecretHex(refreshToken);
  const row = await caches.sessions.get(sessionCacheKeyOfHex(hex), () =>
    db.selectFrom("sessions").selectAll().where("refresh_token_hash", "=", hashFromHex(hex)).executeTakeFirst(),
  );
  if (!row || row.project_id !== projectId || (row.expires_at && row.expires_at.getTime() <= Date.now())) {
    throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  }
  return row;
}

/**
 * Records use of a session (from which device: by default the request's) and its user's activity, at most
 * once a minute.
 */
export async function touchSession(db: Db, session: Pick<SessionRow, "id" | "user_id" | "last_used_at">, given?: SessionDevice): Promise<void> {
  const now = new Date();
  if (now.getTime() - session.last_used_at.getTime() < ACTIVITY_WRITE_INTERVAL_MS) return;
  // Only now: most refreshes record nothing, and need not work out the address.
  const device = given ?? currentRequestDevice(db);
  await db
    .updateTable("sessions")
    .set({
      last_used_at: now,
      // The country belongs to the address: a new address without one must not keep the old address's.
      ...(device.ip ? { last_used_ip: device.ip, last_used_country_code: device.countryCode ?? null } : {}),
      // A use that names no browser says nothing about the one recorded before.
      ...(device.userAgent ? { last_used_user_agent: device.userAgent } : {}),
    })
    .where("id", "=", session.id)
    .execute();
  await markUserActive(db, session.user_id, now);
}

/** What the request pipeline puts in each request's database scope (db/request-scope.ts) for the tokens made here. */
export interface RequestTokenFacts {
  /** Whose claims the request's access tokens carry: the dialect its headers named, null when they named none. */
  tokenDialect: AccessTokenDialect;
}

/**
 * The claim set of the request the database instance runs for. Tokens are made by a dozen issuers (every sign-in
 * path, refresh, the OAuth token endpoint, anonymous sign-up, MFA, CLI, handoff), all through this module; the
 * choice is made here once rather than passed down each of them. Outside a request: every claim.
 */
function currentTokenDialect(db: Db): AccessTokenDialect {
  const facts = requestScopeOf(db)?.facts as Partial<RequestTokenFacts> | undefined;
  return facts?.tokenDialect ?? null;
}

/** A session's access token from its user's record (the refresh path reads it through the user cache). */
export async function accessTokenForUserRecord(
  db: Db,
  env: Env,
  session: Pick<SessionRow, "id" | "project_id" | "is_impersonation">,
  record: UserRecord,
  policy: RestrictionPolicy,
): Promise<string> {
  return signSessionAccessToken(db, env, session, record.user, record.primaryEmail, policy);
}

async function signSessionAccessToken(
  db: Db,
  env: Env,
  session: Pick<SessionRow, "id" | "project_id" | "is_impersonation">,
  user: Pick<UserRecord["user"], "id" | "display_name" | "selected_team_id" | "is_anonymous" | "created_at" | "restricted_by_admin" | "totp_secret">,
  primaryEmail: { value: string; is_verified: boolean } | null,
  policy: RestrictionPolicy,
): Promise<string> {
  const subject = {
    projectId: session.project_id,
    branchId: "main",
    userId: user.id,
    refreshTokenId: session.id,
    name: user.display_name,
    email: primaryEmail?.value ?? null,
    emailVerified: primaryEmail?.is_verified ?? false,
    selectedTeamId: user.selected_team_id,
    signedUpAt: user.created_at,
    isAnonymous: user.is_anonymous,
    restrictedReason: restrictedReasonOf(user, primaryEmail, policy),
    requiresTotpMfa: user.totp_secret !== null,
  };
  // Every token given is the user's activity (services/token-activity.ts); an admin acting as the user is not.
  if (!session.is_impersonation) await noteAccessToken(db, { projectId: session.project_id, userId: user.id });
  return signAccessToken(env, subject, Date.now(), currentTokenDialect(db));
}

/** Signs a user in: a new session and its first access token (the protocol's sign-in response tokens). */
export async function signInUser(db: Db, env: Env, session: NewSession): Promise<{ refresh_token: string; access_token: string; session: NewSessionRow }> {
  const created = await createSession(db, session);
  const accessToken = await signSessionAccessToken(db, env, created.session, created.user, created.primaryEmail, restrictionPolicy(session.project));
  return { refresh_token: created.refreshToken, access_token: accessToken, session: created.session };
}

/** A user's live sessions, newest first; impersonation sessions only when asked for (admins see them). */
export async function listUserSessions(db: Db, projectId: string, userId: string, options: { includeImpersonation?: boolean } = {}): Promise<SessionRow[]> {
  let query = db
    .selectFrom("sessions")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", sql<Date>`now()`)]));
  if (!options.includeImpersonation) query = query.where("is_impersonation", "=", false);
  return query.orderBy("created_at", "desc").execute();
}

/** Ends one session of a user; false when there was no such session. */
export async function revokeSession(db: Db, projectId: string, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom("sessions").where("id", "=", sessionId).where("project_id", "=", projectId).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of a user (password set or changed), optionally keeping the one in use. */
export async function revokeUserSessions(db: Db, userId: string, options: { except?: string } = {}): Promise<void> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (options.except) query = query.where("id", "!=", options.except);
  await query.execute();
}
