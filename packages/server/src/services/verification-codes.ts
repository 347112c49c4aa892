import { KnownErrors, type KnownError } from "@latchkey/protocol/errors";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { Db } from "../db/connect.js";
import type { Database } from "../db/schema.js";
import type { VerificationCodesTable } from "../db/schema-verification.js";
import { CROCKFORD_ALPHABET, hashSecret, secureRandomString } from "../crypto/secrets.js";
import { tooManyAttempts } from "./auth-throttle.js";

/**
 * One mechanism for every one-time code (issue 4, SPEC §4 "Verification codes"): email verification,
 * password reset, magic link / OTP sign-in, team and sign-in invitations.
 *
 * Codes are as the protocol has them: 45 characters of lowercase Crockford base32 (the reference's
 * `generateSecureRandomString()`: 224 bits). For OTP sign-in the first 6 characters are the one-time code
 * the user types (shown uppercase in the email) and the other 39 are the nonce `send-sign-in-code`
 * returns; the client sends back OTP + nonce. Every code has the same shape, so every code is looked up by
 * its nonce's hash and must then match the whole code's hash. A wrong OTP with the right nonce counts as
 * an attempt; after `maxAttempts` of them the code is dead, even for the right OTP.
 *
 * Use is decided by one `UPDATE … WHERE used_at IS NULL … RETURNING`, so a code works exactly once however
 * many requests race it; the reads that follow a failed update only pick which error to report.
 */

/** Purposes of codes; a code presented for another purpose does not exist. */
export type VerificationPurpose =
  | "email_verification"
  | "password_reset"
  | "otp_sign_in"
  | "team_invitation"
  | "sign_in_invitation"
  /** The second step of a sign-in with two-factor authentication (services/mfa-gate.ts). */
  | "mfa_sign_in"
  /** The unsubscribe link in non-transactional mail (services/notification-preferences.ts); checked, never used up. */
  | "unsubscribe"
  /** A session handed from a hosted handler page to the app (services/hosted-handoff.ts). */
  | "hosted_handoff";

export type VerificationCodeKind = "link" | "otp";

/** A Kysely handle or a transaction on it. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type VerificationCodeRow = Selectable<VerificationCodesTable>;

const CODE_ALPHABET = CROCKFORD_ALPHABET;
export const CODE_LENGTH = 45;
export const OTP_LENGTH = 6;
/** Wrong OTP guesses allowed per code: 20 guesses at a 32^6 space is a 1 in 50 million chance. */
export const DEFAULT_MAX_ATTEMPTS = 20;

/**
 * Send throttling: at most SEND_LIMIT codes of one purpose to one email address (case-insensitive) per
 * project within SEND_WINDOW_MS; the next send is refused with HTTP 429 (plain-text body; `Retry-After`: the
 * seconds until the oldest counted send leaves the window, as every throttle answers). The reference has no
 * known error for this, hence a plain 429. The count is read before the insert, so a burst of concurrent
 * sends may overshoot by the number racing; that still stops anyone from mail-bombing an address.
 */
export const SEND_LIMIT = 5;
export const SEND_WINDOW_MS = 10 * 60_000;

export interface NewVerificationCode {
  projectId: string;
  purpose: VerificationPurpose;
  /** Stored as JSON and returned when the code is used. */
  data: unknown;
  expiresInMs: number;
  maxAttempts?: number;
  kind: VerificationCodeKind;
  /** The address the code is mailed to; counted by `assertSendAllowed`. */
  email?: string | null;
}

export interface CreatedVerificationCode {
  id: string;
  /** The 45-character code (for links: `<callback_url>?code=<code>`; for OTP sign-in: OTP + nonce). */
  code: string;
  /** The 6 characters to type by hand, uppercase as in the email's subject (the code's first 6). */
  otp: string;
  /** The code's last 39 characters, returned by `send-sign-in-code` as `nonce`. */
  nonce: string;
  expiresAt: Date;
}

export interface PresentedCode {
  projectId: string;
  purpose: VerificationPurpose;
  code: string;
}

/** Makes a code; only its hashes are stored. */
export async function createVerificationCode(db: Executor, input: NewVerificationCode): Promise<CreatedVerificationCode> {
  const code = secureRandomString(CODE_LENGTH);
  const nonce = code.slice(OTP_LENGTH);
  const expiresAt = new Date(Date.now() + input.expiresInMs);
  const row = await db
    .insertInto("verification_codes")
    .values({
      project_id: input.projectId,
      purpose: input.purpose,
      kind: input.kind,
      nonce_hash: hashSecret(nonce),
      code_hash: hashSecret(code),
      data: JSON.stringify(input.data ?? null),
      email: input.email ? input.email.toLowerCase() : null,
      max_attempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      expires_at: expiresAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, code, otp: code.slice(0, OTP_LENGTH).toUpperCase(), nonce, expiresAt };
}

/**
 * Uses a code: its data, exactly once. Errors: VERIFICATION_CODE_NOT_FOUND (also for a wrong OTP, which is
 * counted, and for another purpose's code), _EXPIRED, _ALREADY_USED, _MAX_ATTEMPTS_REACHED.
 *
 * Given a transaction, the code is used only if that transaction commits, but a wrong guess counted in it
 * is rolled back with it when the error aborts the transaction: flows that apply an effect should use
 * `useVerificationCode`, which counts wrong guesses outside the transaction.
 */
export async function consumeVerificationCode(db: Executor, input: PresentedCode): Promise<unknown> {
  const outcome = await claim(db, input);
  if ("data" in outcome) return outcome.data;
  throw await failure(db, outcome);
}

/**
 * Uses a code and applies its effect in one transaction: if `apply` throws, the code stays unused.
 * Wrong guesses are counted outside the transaction, so they stick.
 */
export async function useVerificationCode<T>(db: Db, input: PresentedCode, apply: (data: unknown, trx: Transaction<Database>) => Promise<T>): Promise<T> {
  let failed: Failure | undefined;
  const result = await db
    .transaction()
    .execute(async (trx) => {
      const outcome = await claim(trx, input);
      if (!("data" in outcome)) {
        failed = outcome;
        throw outcome.error;
      }
      return { value: await apply(outcome.data, trx) };
    })
    .catch(async (error: unknown) => {
      if (failed) throw await failure(db, failed);
      throw error;
    });
  return result.value;
}

/** Validates a code without using it (the `check-code` endpoints): the same errors, wrong OTPs counted. */
export async function checkVerificationCode(db: Executor, input: PresentedCode): Promise<unknown> {
  const normalized = normalizeCode(input.code);
  if (!normalized) throw new KnownErrors.VerificationCodeNotFound();
  const row = await findByNonce(db, input, normalized);
  const outcome = row ? diagnose(row, normalized) : { error: new KnownErrors.VerificationCodeNotFound() };
  if (outcome) throw await failure(db, outcome);
  return row!.data;
}

/** Refuses a send beyond the throttling rule above (HTTP 429). */
export async function assertSendAllowed(db: Executor, input: { projectId: string; purpose: VerificationPurpose; email: string }): Promise<void> {
  // The newest SEND_LIMIT sends in the window: once the oldest of them leaves it, fewer than SEND_LIMIT
  // remain, even after a race overshot the limit.
  const counted = await db
    .selectFrom("verification_codes")
    .select("created_at")
    .where("project_id", "=", input.projectId)
    .where("purpose", "=", input.purpose)
    .where("email", "=", input.email.toLowerCase())
    .where("created_at", ">", new Date(Date.now() - SEND_WINDOW_MS))
    .orderBy("created_at", "desc")
    .limit(SEND_LIMIT)
    .execute();
  if (counted.length < SEND_LIMIT) return;
  const leavesWindowAt = new Date(counted[SEND_LIMIT - 1]!.created_at).getTime() + SEND_WINDOW_MS;
  // Rounded up, so a client that waits exactly this long is let through; at least 1 s (Retry-After has no 0 wait).
  const seconds = Math.min(SEND_WINDOW_MS / 1000, Math.max(1, Math.ceil((leavesWindowAt - Date.now()) / 1000)));
  throw tooManyAttempts(seconds, `Too many emails sent to this address: at most ${SEND_LIMIT} in ${SEND_WINDOW_MS / 60_000} minutes`);
}

interface Failure {
  error: KnownError;
  /** Set when the nonce matched but the OTP did not: the guess is counted against this row. */
  wrongGuessOf?: string;
}

/** The one atomic write that uses a code; on failure, which error it is. */
async function claim(db: Executor, input: PresentedCode): Promise<{ data: unknown } | Failure> {
  const normalized = normalizeCode(input.code);
  if (!normalized) return { error: new KnownErrors.VerificationCodeNotFound() };
  const now = new Date();
  const used = await db
    .updateTable("verification_codes")
    .set({ used_at: now })
    .where("project_id", "=", input.projectId)
    .where("purpose", "=", input.purpose)
    .where("nonce_hash", "=", hashSecret(normalized.slice(OTP_LENGTH)))
    .where("code_hash", "=", hashSecret(normalized))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .where((eb) => eb("attempts", "<", eb.ref("max_attempts")))
    .returning("data")
    .executeTakeFirst();
  if (used) return { data: used.data };
  const row = await findByNonce(db, input, normalized);
  return (row && diagnose(row, normalized)) ?? { error: new KnownErrors.VerificationCodeNotFound() };
}

/** Why a row does not accept this code, or undefined when it does. */
function diagnose(row: VerificationCodeRow, normalized: string): Failure | undefined {
  if (row.attempts >= row.max_attempts) return { error: new KnownErrors.VerificationCodeMaxAttemptsReached() };
  if (!Buffer.from(row.code_hash).equals(Buffer.from(hashSecret(normalized)))) {
    return { error: new KnownErrors.VerificationCodeNotFound(), wrongGuessOf: row.id };
  }
  if (row.used_at) return { error: new KnownErrors.VerificationCodeAlreadyUsed() };
  if (row.expires_at.getTime() <= Date.now()) return { error: new KnownErrors.VerificationCodeExpired() };
  return undefined;
}

/** Counts a wrong guess (one atomic increment, never past the limit); the error to report. */
async function failure(db: Executor, outcome: Failure): Promise<KnownError> {
  if (!outcome.wrongGuessOf) return outcome.error;
  const counted = await db
    .updateTable("verification_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", outcome.wrongGuessOf)
    .where((eb) => eb("attempts", "<", eb.ref("max_attempts")))
    .returning("attempts")
    .executeTakeFirst();
  // A guess that arrives after the limit was reached (maybe by a concurrent guess) is refused as such.
  return counted ? outcome.error : new KnownErrors.VerificationCodeMaxAttemptsReached();
}

async function findByNonce(db: Executor, input: PresentedCode, normalized: string): Promise<VerificationCodeRow | undefined> {
  return db
    .selectFrom("verification_codes")
    .selectAll()
    .where("project_id", "=", input.projectId)
    .where("purpose", "=", input.purpose)
    .where("nonce_hash", "=", hashSecret(normalized.slice(OTP_LENGTH)))
    .executeTakeFirst();
}

/**
 * The code in its stored form, or undefined when it cannot be one. Case-insensitive, since the OTP is shown
 * uppercase and typed by hand; Crockford's look-alikes (o → 0, i/l → 1) are read as the digits they mimic.
 */
function normalizeCode(code: string): string | undefined {
  if (typeof code !== "string" || code.length !== CODE_LENGTH) return undefined;
  const normalized = code.toLowerCase().replace(/o/g, "0").replace(/[il]/g, "1");
  for (const char of normalized) if (!CODE_ALPHABET.includes(char)) return undefined;
  return normalized;
}
