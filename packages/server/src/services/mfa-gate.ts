import { KnownErrors } from "@latchkey/protocol/errors";
import type { SignInResponse } from "@latchkey/protocol/schemas";
import type { Env } from "../env.js";
import type { SettleWithin } from "./auth-throttle.js";
import type { ProjectRow } from "./projects.js";
import { signInUser } from "./sessions.js";
import { createVerificationCode, type Executor, type VerificationPurpose } from "./verification-codes.js";

/** The attempt code's purpose. */
export const MFA_ATTEMPT_PURPOSE: VerificationPurpose = "mfa_sign_in";
/** An attempt code lives as long as the protocol's (5 minutes): time to open an authenticator app. */
export const MFA_ATTEMPT_LIFETIME_MS = 5 * 60_000;
/** Wrong TOTP codes allowed per attempt code; then it is dead and the first factor must be given again. */
export const MFA_MAX_WRONG_CODES = 5;

/** What an attempt code remembers of the first factor (the protocol's `{ user_id, is_new_user }`). */
export interface MfaAttemptData {
  user_id: string;
  is_new_user: boolean;
}

/**
 * The last step of every sign-in path (password, one-time code, passkey, later OAuth). A user with a TOTP
 * secret gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code instead of tokens (SPEC.md §4);
 * `POST /auth/mfa/sign-in` finishes it (services/mfa.ts). Everyone else gets a session now.
 *
 * Called inside a transaction, the thrown error would roll back the attempt code it names: such callers
 * wrap the transaction in `throwingMfaAfterCommit`.
 */
export async function finishSignIn(
  db: Executor,
  env: Env,
  project: ProjectRow,
  user: { id: string; totp_secret: Uint8Array | null },
  options: { isNewUser: boolean; /** run with the session's statement (sessions.ts `NewSession.alongside`) */ alongside?: SettleWithin },
): Promise<SignInResponse> {
  if (user.totp_secret !== null) {
    const data: MfaAttemptData = { user_id: user.id, is_new_user: options.isNewUser };
    // Never typed by a person (the client keeps it in session storage), so a "link" code: 45 random characters.
    const attempt = await createVerificationCode(db, {
      projectId: project.id,
      purpose: MFA_ATTEMPT_PURPOSE,
      data,
      expiresInMs: MFA_ATTEMPT_LIFETIME_MS,
      maxAttempts: MFA_MAX_WRONG_CODES,
      kind: "link",
    });
    throw new KnownErrors.MultiFactorAuthenticationRequired(attempt.code);
  }
  const tokens = await signInUser(db as Parameters<typeof signInUser>[0], env, { project, userId: user.id, alongside: options.alongside });
  return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: options.isNewUser };
}

/**
 * For sign-ins whose first factor is used up inside a transaction (a one-time code): `run` gets a
 * `finishSignIn` that returns instead of throwing when MFA is required, so the transaction commits (the first
 * factor is spent and the attempt code stored, as in the protocol), and the MFA error is thrown only then.
 */
export async function throwingMfaAfterCommit<T>(run: (finish: typeof finishSignIn) => Promise<T>): Promise<T> {
  let required: InstanceType<typeof KnownErrors.MultiFactorAuthenticationRequired> | undefined;
  const finish: typeof finishSignIn = async (...args) => {
    try {
      return await finishSignIn(...args);
    } catch (error) {
      if (!(error instanceof KnownErrors.MultiFactorAuthenticationRequired)) throw error;
      required = error;
      // Never reaches the caller: `required` is thrown once the transaction has committed.
      return { access_token: "", refresh_token: "", user_id: args[3].id, is_new_user: args[4].isNewUser };
    }
  };
  const result = await run(finish);
  if (required) throw required;
  return result;
}
