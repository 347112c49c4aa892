import { KnownErrors } from "@latchkey/protocol/errors";
import type { SignInResponse } from "@latchkey/protocol/schemas";
import { sql } from "kysely";
import { Secret, TOTP } from "otpauth";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { hashSecret } from "../crypto/secrets.js";
import { throttledAttempt } from "./auth-throttle.js";
import { MFA_ATTEMPT_PURPOSE, type MfaAttemptData } from "./mfa-gate.js";
import type { ProjectRow } from "./projects.js";
import { signInUser } from "./sessions.js";
import { checkVerificationCode, OTP_LENGTH, useVerificationCode, type Executor } from "./verification-codes.js";

/**
 * The second sign-in factor (SPEC.md §4 "MFA"): `POST /auth/mfa/sign-in {type: "totp", totp, code}` turns the
 * attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED (services/mfa-gate.ts) and a TOTP code into a session.
 *
 * TOTP as authenticator apps make it (RFC 6238): SHA-1, 6 digits, 30-second steps, and the step before and
 * after accepted for clock drift. A code is accepted once per user: the last accepted step is remembered and
 * only a later one passes (one conditional upsert, so parallel requests with one code cannot both pass). Wrong
 * codes, replays included, are counted on the attempt code; after MFA_MAX_WRONG_CODES it is dead. They are also
 * counted per user and per client address (services/auth-throttle.ts): whoever has the password gets a new
 * attempt code with every sign-in, so the attempt code's own limit alone would not stop guessing.
 */

const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
const TOTP_DRIFT_STEPS = 1;

/** The time step a TOTP code belongs to for this secret (now ± one step), or undefined when it is wrong. */
export function matchingTotpStep(secret: Uint8Array, code: string, now = Date.now()): number | undefined {
  const totp = new TOTP({
    secret: new Secret({ buffer: new Uint8Array(secret).buffer }),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
  const delta = totp.validate({ token: code, timestamp: now, window: TOTP_DRIFT_STEPS });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Completes an MFA sign-in; the attempt code's VERIFICATION_CODE_* errors, or INVALID_TOTP_CODE. */
export async function signInWithTotp(
  db: Db,
  env: Env,
  project: ProjectRow,
  input: { attemptCode: string; totp: string; clientIp?: string },
): Promise<SignInResponse> {
  const presented = { projectId: project.id, purpose: MFA_ATTEMPT_PURPOSE, code: input.attemptCode };
  // The attempt code first, so a dead or unknown one is reported as such whatever TOTP came with it.
  const attempt = (await checkVerificationCode(db, presented)) as MfaAttemptData;
  const subject = { kind: "mfa_code" as const, projectId: project.id, account: attempt.user_id, clientIp: input.clientIp };
  const isWrongTotp = (error: unknown) => error instanceof KnownErrors.InvalidTotpCode || error instanceof KnownErrors.VerificationCodeMaxAttemptsReached;
  return throttledAttempt(db, subject, () => checkSecondFactor(db, env, project, presented, attempt, input.totp), isWrongTotp);
}

async function checkSecondFactor(
  db: Db,
  env: Env,
  project: ProjectRow,
  presented: { projectId: string; purpose: typeof MFA_ATTEMPT_PURPOSE; code: string },
  attempt: MfaAttemptData,
  totp: string,
): Promise<SignInResponse> {
  const user = await db.selectFrom("users").select(["id", "totp_secret"]).where("id", "=", attempt.user_id).where("project_id", "=", project.id).executeTakeFirst();
  if (!user) throw new KnownErrors.UserNotFound();

  // MFA turned off since the first factor was given (within the attempt's 5 minutes): a sign-in started now
  // would need no second factor, so the first one suffices.
  const step = user.totp_secret === null ? null : matchingTotpStep(user.totp_secret, totp);
  if (step === undefined) throw await wrongCode(db, presented);
  try {
    return await useVerificationCode(db, presented, async (_data, trx) => {
      if (user.totp_secret !== null && step !== null && !(await acceptTotpStep(trx, user.id, user.totp_secret, step))) {
        // A code (or an earlier one) already used: rolls the attempt code's use back with it.
        throw new KnownErrors.InvalidTotpCode();
      }
      const tokens = await signInUser(trx, env, { project, userId: user.id });
      return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: attempt.is_new_user };
    });
  } catch (error) {
    if (error instanceof KnownErrors.InvalidTotpCode) throw await wrongCode(db, presented);
    throw error;
  }
}

/**
 * Records `step` as the user's last accepted one if it is later than the last (or the secret is new): false
 * when it is not, i.e. the code was used already. Under concurrency the second upsert waits for the first and
 * then finds its condition false.
 */
async function acceptTotpStep(db: Executor, userId: string, secret: Uint8Array, step: number): Promise<boolean> {
  const secretHash = hashSecret(Buffer.from(secret).toString("base64"));
  const accepted = await db
    .insertInto("totp_used_steps")
    .values({ user_id: userId, secret_hash: secretHash, last_used_step: step })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({ secret_hash: secretHash, last_used_step: step }).where((eb) =>
        eb.or([eb("totp_used_steps.last_used_step", "<", step), sql<boolean>`totp_used_steps.secret_hash <> ${secretHash}`]),
      ),
    )
    .returning("user_id")
    .executeTakeFirst();
  return accepted !== undefined;
}

/**
 * Counts a wrong TOTP code on the attempt code (one atomic increment, never past the limit) and returns the
 * error to report: INVALID_TOTP_CODE, or VERIFICATION_CODE_MAX_ATTEMPTS_REACHED when the limit was reached
 * meanwhile (by a parallel guess). The row is found by its nonce as the code service finds it; the code was
 * checked whole just before.
 */
async function wrongCode(db: Db, presented: { projectId: string; code: string }): Promise<Error> {
  const nonce = presented.code.toLowerCase().replace(/o/g, "0").replace(/[il]/g, "1").slice(OTP_LENGTH);
  const counted = await db
    .updateTable("verification_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("project_id", "=", presented.projectId)
    .where("purpose", "=", MFA_ATTEMPT_PURPOSE)
    .where("nonce_hash", "=", hashSecret(nonce))
    .where("used_at", "is", null)
    .where((eb) => eb("attempts", "<", eb.ref("max_attempts")))
    .returning("attempts")
    .executeTakeFirst();
  return counted ? new KnownErrors.InvalidTotpCode() : new KnownErrors.VerificationCodeMaxAttemptsReached();
}
