import { KnownErrors } from "@latchkey/protocol/errors";
import { hashSecret, secureRandomString } from "../crypto/secrets.js";
import type { Executor } from "./verification-codes.js";

/**
 * WebAuthn challenges (passkey_challenges, migrations/0013_passkeys.sql). An initiate route stores the
 * challenge it put in the browser's options and answers with a `code` naming it; register / sign-in send
 * the code back and get the challenge the authenticator must have signed. A challenge is short-lived and
 * works once: using it is one `UPDATE … WHERE used_at IS NULL AND expires_at > now() RETURNING`, so of any
 * number of racing requests exactly one gets it. It is used up before the credential is verified, so a
 * failed attempt cannot be retried with the same challenge (WebAuthn §13.4.3: challenges must not repeat).
 *
 * Unknown, used and expired codes answer as the protocol's verification-code handler does:
 * VERIFICATION_CODE_NOT_FOUND, _ALREADY_USED, _EXPIRED.
 */

export type PasskeyCeremony = "registration" | "authentication";

/** Long enough for a person to find their authenticator and touch it; the options' `timeout` is shorter. */
export const PASSKEY_CHALLENGE_LIFETIME_MS = 5 * 60_000;

/** Expired challenges are deleted this long after expiry, so a late code still gets "expired", not "not found". */
const EXPIRED_CHALLENGE_RETENTION_MS = 60 * 60_000;

export interface StoredChallenge {
  challenge: string;
  /** For registration: the user the challenge was issued to. */
  userId: string | null;
}

/** Stores a challenge; returns the code naming it (45 characters, only its hash is kept). */
export async function storePasskeyChallenge(
  db: Executor,
  input: { projectId: string; ceremony: PasskeyCeremony; challenge: string; userId: string | null },
): Promise<string> {
  const code = secureRandomString();
  // Housekeeping on the way: the project's long-expired challenges go (bounded by the expiry index).
  await db
    .deleteFrom("passkey_challenges")
    .where("project_id", "=", input.projectId)
    .where("expires_at", "<", new Date(Date.now() - EXPIRED_CHALLENGE_RETENTION_MS))
    .execute();
  await db
    .insertInto("passkey_challenges")
    .values({
      project_id: input.projectId,
      purpose: input.ceremony,
      code_hash: hashSecret(code),
      challenge: input.challenge,
      user_id: input.userId,
      expires_at: new Date(Date.now() + PASSKEY_CHALLENGE_LIFETIME_MS),
    })
    .execute();
  return code;
}

/** Uses up the challenge `code` names, exactly once; the protocol's verification-code errors otherwise. */
export async function consumePasskeyChallenge(db: Executor, input: { projectId: string; ceremony: PasskeyCeremony; code: string }): Promise<StoredChallenge> {
  const codeHash = hashSecret(input.code);
  const now = new Date();
  const used = await db
    .updateTable("passkey_challenges")
    .set({ used_at: now })
    .where("project_id", "=", input.projectId)
    .where("purpose", "=", input.ceremony)
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["challenge", "user_id"])
    .executeTakeFirst();
  if (used) return { challenge: used.challenge, userId: used.user_id };
  // Only picks which error to report; the decision was the update above.
  const row = await db
    .selectFrom("passkey_challenges")
    .select(["used_at", "expires_at"])
    .where("project_id", "=", input.projectId)
    .where("purpose", "=", input.ceremony)
    .where("code_hash", "=", codeHash)
    .executeTakeFirst();
  if (!row) throw new KnownErrors.VerificationCodeNotFound();
  if (row.used_at) throw new KnownErrors.VerificationCodeAlreadyUsed();
  throw new KnownErrors.VerificationCodeExpired();
}
