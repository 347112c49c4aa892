import { KnownErrors } from "@latchkey/protocol/errors";
import { exactAddressFirst, sameAuthAddress } from "./auth-address.js";
import { admitCountedAttempt, throttledAttempt, type ThrottleSubject } from "./auth-throttle.js";
import type { SignInResponse } from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { sendEmail } from "../email/send.js";
import { codeLink } from "../email/templates.js";
import type { AppDeps } from "./deps.js";
import type { ProjectRow } from "./projects.js";
import { throwingMfaAfterCommit } from "./mfa-gate.js";
import { sendTiming } from "./send-timing.js";
import { createUser } from "./users.js";
import { emittingUserUpdated } from "./user-updated-events.js";
import { assertSendAllowed, checkVerificationCode, createVerificationCode, useVerificationCode, type Executor } from "./verification-codes.js";

/**
 * Magic link / one-time-code sign-in (SPEC.md §7 "Auth"). `send-sign-in-code` mails a 6-character code
 * (in the subject, uppercase) and a link `<callback_url>?code=<code>`, and answers with the code's nonce;
 * `sign-in` takes the whole 45-character code, either from the link or as the typed OTP followed by the
 * nonce (the client library concatenates them). Signing in with a code proves the inbox is the person's,
 * so a new email becomes a new user with that email verified.
 */

/** A sign-in code is good for 30 minutes; wrong typed guesses are limited by the code service. */
export const OTP_SIGN_IN_CODE_LIFETIME_MS = 30 * 60_000;

interface SignInCodeData {
  email: string;
}

const configOf = (project: ProjectRow): ProjectConfig => renderProjectConfig(project.config_override as ConfigObject);

/** The protocol has no known error for this: it answers a plain 403 with this text. */
function requireOtpSignIn(project: ProjectRow): ProjectConfig {
  const config = configOf(project);
  if (!config.auth.otp.allowSignIn) throw new HTTPException(403, { message: "OTP sign-in is not enabled for this project" });
  return config;
}

interface AuthChannel {
  user_id: string;
  is_verified: boolean;
}

/**
 * The account that signs in with `email`, or null when none does. As in the protocol, an account whose
 * email is not verified cannot be entered by a code mailed to that address (USER_EMAIL_ALREADY_EXISTS with
 * `would_work_if_email_was_verified`): whoever registered it unverified may not own the inbox, and the
 * inbox owner must not inherit an account someone else holds the password of.
 */
async function accountForEmail(db: Executor, projectId: string, email: string, options: { lock?: boolean } = {}): Promise<AuthChannel | null> {
  let query = db
    .selectFrom("contact_channels")
    .select(["user_id", "is_verified"])
    .where("project_id", "=", projectId)
    .where("type", "=", "email")
    .where(sameAuthAddress("value", email))
    .where("used_for_auth", "=", true)
    .orderBy(exactAddressFirst("value", email), "desc");
  if (options.lock) query = query.forUpdate();
  const channel = await query.executeTakeFirst();
  if (!channel) return null;
  if (!channel.is_verified) throw new KnownErrors.UserWithEmailAlreadyExists(email, true);
  return channel;
}

/** Mails a sign-in code to `email` and returns its nonce. */
export async function sendSignInCode(deps: AppDeps, project: ProjectRow, input: { email: string; callbackUrl: string; clientIp?: string }): Promise<{ nonce: string }> {
  const config = requireOtpSignIn(project);
  // Before looking at the email, so that this answer does not depend on whether an account exists.
  if (!isUrlTrustedForProject(deps.env, project.id, config, input.callbackUrl)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  await admitCountedAttempt(deps.db, { kind: "mail_send", projectId: project.id, clientIp: input.clientIp });
  const account = await accountForEmail(deps.db, project.id, input.email);
  if (!account && !config.auth.allowSignUp) throw new KnownErrors.SignUpNotEnabled();
  await assertSendAllowed(deps.db, { projectId: project.id, purpose: "otp_sign_in", email: input.email });
  const data: SignInCodeData = { email: input.email };
  const created = await createVerificationCode(deps.db, {
    projectId: project.id,
    purpose: "otp_sign_in",
    data,
    expiresInMs: OTP_SIGN_IN_CODE_LIFETIME_MS,
    kind: "otp",
    email: input.email,
  });
  // Handed to the mail server before the answer, whether or not an account exists (a new address signs up
  // with the code), so both cases take a real send's time; the duration feeds services/send-timing.ts.
  await sendTiming.timedSend(project, () =>
    sendEmail(deps, project, {
      to: input.email,
      template: "magic_link",
      variables: { magicLink: codeLink(input.callbackUrl, created.code), otp: created.otp },
      userId: account?.user_id,
    }),
  );
  return { nonce: created.nonce };
}

/**
 * Wrong codes count against the client address (services/auth-throttle.ts): the 6 typed characters are
 * guessable, and each code's own limit of wrong guesses does not stop guessing across many codes. An expired
 * or used code is a real one (a link clicked twice) and is not counted.
 */
const otpAttempt = (project: ProjectRow, clientIp: string | undefined): ThrottleSubject => ({ kind: "otp_code", projectId: project.id, clientIp });
const isWrongCode = (error: unknown) => error instanceof KnownErrors.VerificationCodeNotFound || error instanceof KnownErrors.VerificationCodeMaxAttemptsReached;

/** Whether a sign-in code can be used (VERIFICATION_CODE_* errors otherwise); nothing changes. */
export async function checkSignInCode(db: Db, project: ProjectRow, code: string, clientIp?: string): Promise<void> {
  await throttledAttempt(db, otpAttempt(project, clientIp), () => checkVerificationCode(db, { projectId: project.id, purpose: "otp_sign_in", code }), isWrongCode);
}

/**
 * Signs in with a code: the account of the code's email (which from now on also signs in by code), or a
 * new one with that email verified (`is_new_user: true`). Using the code, creating the user and the
 * session are one transaction, so a failure (sign-up turned off meanwhile, the email taken by a concurrent
 * sign-up) leaves the code usable and nothing half-written.
 */
export async function signInWithCode(db: Db, env: Env, project: ProjectRow, code: string, clientIp?: string): Promise<SignInResponse> {
  const config = requireOtpSignIn(project);
  return throttledAttempt(db, otpAttempt(project, clientIp), () => signInRetryingRace(db, env, project, config, code), isWrongCode);
}

async function signInRetryingRace(db: Db, env: Env, project: ProjectRow, config: ProjectConfig, code: string): Promise<SignInResponse> {
  try {
    return await signInOnce(db, env, project, config, code);
  } catch (error) {
    // Two codes for one new email used at the same moment: both found no account and one created it. The
    // other's transaction was rolled back (its code unused), and a second try signs in to that account.
    if (error instanceof KnownErrors.UserWithEmailAlreadyExists && error.details?.would_work_if_email_was_verified === false) {
      return signInOnce(db, env, project, config, code);
    }
    throw error;
  }
}

async function signInOnce(db: Db, env: Env, project: ProjectRow, config: ProjectConfig, code: string): Promise<SignInResponse> {
  // A user with a TOTP secret gets MULTI_FACTOR_AUTHENTICATION_REQUIRED once the code's use has committed.
  return throwingMfaAfterCommit((finish) =>
    useVerificationCode(db, { projectId: project.id, purpose: "otp_sign_in", code }, async (data, trx) => {
      const { email } = data as SignInCodeData;
      const account = await accountForEmail(trx, project.id, email, { lock: true });
      let user: { id: string; totp_secret: Uint8Array | null };
      if (account) {
        // The first OTP sign-in turns it on (otp_auth_enabled, auth_with_email): user.updated.
        await emittingUserUpdated(trx, project.id, account.user_id, () =>
          trx.updateTable("users").set({ otp_auth_enabled: true }).where("id", "=", account.user_id).where("otp_auth_enabled", "=", false).execute(),
        );
        user = await trx.selectFrom("users").select(["id", "totp_secret"]).where("id", "=", account.user_id).executeTakeFirstOrThrow();
      } else {
        if (!config.auth.allowSignUp) throw new KnownErrors.SignUpNotEnabled();
        user = await createUser(trx, project, { primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true, otpAuthEnabled: true });
      }
      return finish(trx, env, project, user, { isNewUser: !account });
    }),
  );
}
