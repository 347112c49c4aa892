import { HTTPException } from "hono/http-exception";
import type { Db } from "../db/connect.js";
import { sendEmail } from "../email/send.js";
import { codeLink } from "../email/templates.js";
import { admitCountedAttempt } from "./auth-throttle.js";
import type { AppDeps } from "./deps.js";
import type { ProjectRow } from "./projects.js";
import { emittingUserUpdated } from "./user-updated-events.js";
import { assertSendAllowed, checkVerificationCode, createVerificationCode, useVerificationCode } from "./verification-codes.js";

/**
 * Email verification (issue 4): a link `<callback_url>?code=<code>` mailed to an address of a user, and
 * `POST /contact-channels/verify` that marks the user's channel with that address verified. Codes are the
 * one verification-code mechanism's, purpose "email_verification". The caller checks `callback_url`
 * against the project's trusted domains before calling in here.
 */

const PURPOSE = "email_verification" as const;

/** What sending mail needs of the app's dependencies. */
export type MailDeps = Pick<AppDeps, "db" | "env" | "log">;
/** How long a verification link works: the protocol's default for its verification codes, a week. */
export const EMAIL_VERIFICATION_EXPIRES_IN_MS = 7 * 24 * 60 * 60 * 1000;

/** What a code stands for: this user's channel with this address (the reference's code data). */
interface EmailVerificationData {
  user_id: string;
  email: string;
}

export interface EmailVerificationRequest {
  userId: string;
  userDisplayName: string | null;
  email: string;
  callbackUrl: string;
  /** The client address that asked (http/client-ip.ts `attemptIp`): its sends are limited too. */
  clientIp?: string;
}

/**
 * Mails a verification link. Refused with HTTP 429 past the per-address send limit (verification-codes.ts)
 * or the per-client-address one (auth-throttle.ts); a delivery failure is recorded with the sent email and
 * does not throw.
 */
export async function sendEmailVerification(deps: MailDeps, project: ProjectRow, request: EmailVerificationRequest): Promise<void> {
  await admitCountedAttempt(deps.db, { kind: "mail_send", projectId: project.id, clientIp: request.clientIp });
  await assertSendAllowed(deps.db, { projectId: project.id, purpose: PURPOSE, email: request.email });
  const data: EmailVerificationData = { user_id: request.userId, email: request.email };
  const { code } = await createVerificationCode(deps.db, {
    projectId: project.id,
    purpose: PURPOSE,
    data,
    expiresInMs: EMAIL_VERIFICATION_EXPIRES_IN_MS,
    kind: "link",
    email: request.email,
  });
  await sendEmail(deps, project, {
    to: request.email,
    template: "email_verification",
    variables: {
      emailVerificationLink: codeLink(request.callbackUrl, code),
      ...(request.userDisplayName ? { userDisplayName: request.userDisplayName } : {}),
    },
    userId: request.userId,
  });
}

/**
 * The sign-up's verification mail: never fails the sign-up it belongs to (the user exists either way and
 * can ask for another link); whatever went wrong is logged.
 */
export async function sendSignUpEmailVerification(deps: MailDeps, project: ProjectRow, request: EmailVerificationRequest): Promise<void> {
  try {
    await sendEmailVerification(deps, project, request);
  } catch (err) {
    deps.log.warn({ err, projectId: project.id, userId: request.userId }, "sign-up verification email not sent");
  }
}

/**
 * Uses a verification code: the channel it names becomes verified, in the same transaction, so the code is
 * used only if that happens. A channel verified already (by another link, or a server) takes an unused code
 * as the protocol does: the code is used and the answer is a success; only a used code is refused
 * (VERIFICATION_CODE_ALREADY_USED). A plain 400 when the channel is gone; the verification-code errors otherwise.
 */
export async function verifyEmailWithCode(db: Db, projectId: string, code: string): Promise<void> {
  await useVerificationCode(db, { projectId, purpose: PURPOSE, code }, async (data, trx) => {
    const { user_id: userId, email } = data as EmailVerificationData;
    const channel = await trx
      .selectFrom("contact_channels")
      .select("id")
      .where("project_id", "=", projectId)
      .where("user_id", "=", userId)
      .where("type", "=", "email")
      .where("value", "=", email)
      .forUpdate()
      .executeTakeFirst();
    // The address was removed from the user (or changed) after the mail was sent.
    if (!channel) throw new HTTPException(400, { message: "Contact channel not found. Was your contact channel deleted?" });
    // A verified primary email changes the user's read shape (and may lift a restriction): user.updated.
    await emittingUserUpdated(trx, projectId, userId, () =>
      trx.updateTable("contact_channels").set({ is_verified: true }).where("id", "=", channel.id).where("is_verified", "=", false).execute(),
    );
  });
}

/** Checks a verification code without using it (`/contact-channels/verify/check-code`). */
export async function checkEmailVerificationCode(db: Db, projectId: string, code: string): Promise<void> {
  await checkVerificationCode(db, { projectId, purpose: PURPOSE, code });
}
