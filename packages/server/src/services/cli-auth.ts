import { CLI_AUTH_DEFAULT_EXPIRES_IN_MILLIS, type CliAuthPollResponse, type CliAuthStartResponse } from "@latchkey/protocol/schemas";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { hashSecret, secureRandomString } from "../crypto/secrets.js";
import { openSealedText, sealText } from "../crypto/sealed-text.js";
import type { ProjectRow } from "./projects.js";
import { sessionOfRefreshToken } from "./sessions.js";

/**
 * The command-line login flow (SPEC.md §4 "CLI login"): a CLI starts an attempt and gets a polling code (kept)
 * and a login code (put in the confirmation page's URL); a signed-in person confirms in the browser
 * (`complete` with their refresh token); the CLI's next poll gets that refresh token, exactly once.
 *
 * Both codes are the protocol's 45-character random strings, stored only as hashes. As the reference does, the
 * login code is checked before anything else and the browser's refresh token is stored as given (sealed with
 * the server secret, so a copy of the database does not reveal it): the tool shares the browser's session, and a
 * token that no longer works fails at the tool's first refresh. The poll that claims the attempt (one
 * conditional UPDATE, so parallel polls cannot both win) takes the token and clears it.
 *
 * A 2.8.108 tool that was signed in anonymously names that session when it starts (`anon_refresh_token`). The
 * confirmation page's `check` reports it (`cli_session_state: "anonymous"`), so the page can tell the person;
 * nothing else changes: the tool still gets the session of whoever confirms, and its anonymous session is left
 * as it is (the tool decides what to do with its old token; ending it here could lose what it still holds).
 */

/** What the sealed refresh token is bound to: its attempt, named by its project and login code. */
const sealedTokenBinding = (projectId: string, loginCodeHash: Uint8Array) => `cli-auth-refresh-token:${projectId}:${Buffer.from(loginCodeHash).toString("hex")}`;

export async function startCliAuth(db: Db, project: ProjectRow, input: { expiresInMillis?: number; anonRefreshToken?: string }): Promise<CliAuthStartResponse> {
  const pollingCode = secureRandomString();
  const loginCode = secureRandomString();
  const expiresAt = new Date(Date.now() + (input.expiresInMillis ?? CLI_AUTH_DEFAULT_EXPIRES_IN_MILLIS));
  const anonymousSessionId = input.anonRefreshToken === undefined ? null : await anonymousSessionOf(db, project.id, input.anonRefreshToken);
  await db
    .insertInto("cli_auth_attempts")
    .values({
      project_id: project.id,
      polling_code_hash: hashSecret(pollingCode),
      login_code_hash: hashSecret(loginCode),
      expires_at: expiresAt,
      anonymous_session_id: anonymousSessionId,
    })
    .execute();
  return { polling_code: pollingCode, login_code: loginCode, expires_at: expiresAt.toISOString() };
}

/**
 * The session of a tool's `anon_refresh_token` (2.8.108) when it is a live session of an anonymous user of
 * the project, else null. The token only tells how the tool was signed in so far: one that no longer works
 * (the tool's store outlived it) or is not anonymous is left out rather than failing the tool's login.
 */
async function anonymousSessionOf(db: Db, projectId: string, refreshToken: string): Promise<string | null> {
  const session = await sessionOfRefreshToken(db, projectId, refreshToken).catch((error: unknown) => {
    if (error instanceof KnownErrors.RefreshTokenNotFoundOrExpired) return undefined;
    throw error;
  });
  if (!session) return null;
  const user = await db.selectFrom("users").select("is_anonymous").where("id", "=", session.user_id).executeTakeFirst();
  return user?.is_anonymous ? session.id : null;
}

/**
 * One poll: `waiting` until completed, then `success` with the stored refresh token for exactly one poll, `used`
 * for every later one, and `expired` once the attempt's time is up (as the protocol orders them, expiry first).
 * INVALID_POLLING_CODE for a code that was never issued in this project.
 */
export async function pollCliAuth(db: Db, env: Env, project: ProjectRow, pollingCode: string): Promise<CliAuthPollResponse> {
  const pollingCodeHash = hashSecret(pollingCode);
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const claimed = await trx
      .updateTable("cli_auth_attempts")
      .set({ used_at: now })
      .where("project_id", "=", project.id)
      .where("polling_code_hash", "=", pollingCodeHash)
      .where("completed_at", "is not", null)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning(["id", "login_code_hash", "refresh_token_sealed", "refresh_token_sealing_key_id"])
      .executeTakeFirst();
    if (claimed) {
      // Handed out once: the token is not kept past this poll.
      await trx.updateTable("cli_auth_attempts").set({ refresh_token_sealed: null, refresh_token_sealing_key_id: null }).where("id", "=", claimed.id).execute();
      const refreshToken =
        claimed.refresh_token_sealed && claimed.refresh_token_sealing_key_id
          ? openSealedText([env.serverSecret, ...env.previousServerSecrets], sealedTokenBinding(project.id, claimed.login_code_hash), {
              sealed: claimed.refresh_token_sealed,
              keyId: claimed.refresh_token_sealing_key_id,
            })
          : undefined;
      // Sealed under a server secret no longer configured: the tool's login cannot be finished, as if it expired.
      if (refreshToken === undefined) return { status: "expired" };
      return { status: "success", refresh_token: refreshToken };
    }
    // Not claimable: the reads below only tell which answer it is.
    const attempt = await trx
      .selectFrom("cli_auth_attempts")
      .select(["expires_at", "used_at"])
      .where("project_id", "=", project.id)
      .where("polling_code_hash", "=", pollingCodeHash)
      .executeTakeFirst();
    if (!attempt) throw new KnownErrors.InvalidPollingCodeError();
    if (attempt.expires_at.getTime() <= now.getTime()) return { status: "expired" };
    if (attempt.used_at) return { status: "used" };
    return { status: "waiting" };
  });
}

/**
 * Whether a login code can still be completed (not expired, not completed yet): undefined when not, else how
 * the waiting tool is signed in — `anonymous` while the anonymous session it started with is live and its user
 * still anonymous (not signed up since), `none` otherwise.
 */
export async function cliAuthSessionState(db: Db, project: ProjectRow, loginCode: string): Promise<"none" | "anonymous" | undefined> {
  const now = new Date();
  const attempt = await db
    .selectFrom("cli_auth_attempts")
    .leftJoin("sessions", "sessions.id", "cli_auth_attempts.anonymous_session_id")
    .leftJoin("users", "users.id", "sessions.user_id")
    .select(["cli_auth_attempts.id", "sessions.expires_at as session_expires_at", "users.is_anonymous"])
    .where("cli_auth_attempts.project_id", "=", project.id)
    .where("cli_auth_attempts.login_code_hash", "=", hashSecret(loginCode))
    .where("cli_auth_attempts.completed_at", "is", null)
    .where("cli_auth_attempts.expires_at", ">", now)
    .executeTakeFirst();
  if (!attempt) return undefined;
  const sessionLive = attempt.session_expires_at === null || attempt.session_expires_at.getTime() > now.getTime();
  return attempt.is_anonymous === true && sessionLive ? "anonymous" : "none";
}

/**
 * Stores `refreshToken`, as given, for the attempt of `loginCode`; false when that attempt does not exist, has
 * expired or was completed already. A login code completes once: the conditional UPDATE decides between
 * parallel confirmations.
 */
export async function completeCliAuth(db: Db, env: Env, project: ProjectRow, input: { loginCode: string; refreshToken: string }): Promise<boolean> {
  const loginCodeHash = hashSecret(input.loginCode);
  const sealed = sealText(env.serverSecret, sealedTokenBinding(project.id, loginCodeHash), input.refreshToken);
  const now = new Date();
  const completed = await db
    .updateTable("cli_auth_attempts")
    .set({ completed_at: now, refresh_token_sealed: sealed.sealed, refresh_token_sealing_key_id: sealed.keyId })
    .where("project_id", "=", project.id)
    .where("login_code_hash", "=", loginCodeHash)
    .where("completed_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(completed.numUpdatedRows) > 0;
}
