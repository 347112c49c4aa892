import { KnownErrors } from "@latchkey/protocol/errors";
import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import { hashPassword } from "../crypto/passwords.js";
import type { Db } from "../db/connect.js";
import { sendEmail } from "../email/send.js";
import { codeLink } from "../email/templates.js";
import type { AppDeps } from "./deps.js";
import { admitCountedAttempt } from "./auth-throttle.js";
import { assertPasswordRequirements } from "./password-auth.js";
import type { ProjectRow } from "./projects.js";
import { sendTiming } from "./send-timing.js";
import { revokeUserSessions } from "./sessions.js";
import { emittingUserUpdated } from "./user-updated-events.js";
import { findUserByAuthEmail } from "./users.js";
import { assertSendAllowed, checkVerificationCode, createVerificationCode, useVerificationCode } from "./verification-codes.js";

/**
 * Password reset (SPEC.md §7 "Auth"): `send-reset-code` mails a link `<callback_url>?code=<code>`,
 * `reset/check-code` tells whether the code can still be used, `reset` sets the new password and ends
 * every session of the user, in the same transaction that uses the code.
 */

/** A reset link is good for an hour: long enough to find the mail, short enough that an old inbox is no key. */
export const PASSWORD_RESET_CODE_LIFETIME_MS = 60 * 60_000;

/** What a reset code carries; `user_id` is null for a code made for an email without an account (never mailed). */
interface ResetCodeData {
  user_id: string | null;
}

const configOf = (project: ProjectRow): ProjectConfig => renderProjectConfig(project.config_override as ConfigObject);

function requirePasswordAuth(project: ProjectRow): ProjectConfig {
  const config = configOf(project);
  if (!config.auth.password.allowSignIn) throw new KnownErrors.PasswordAuthenticationNotEnabled();
  return config;
}

/**
 * Sends a reset link when an account signs in with `email`; answers the same way either way. So that
 * nothing tells the two cases apart, both do the same work: the callback URL is checked first, the send
 * limits (per client address and per email) count every request, a code is stored for both (one nobody will
 * ever receive for an unknown address). The mail is handed to the mail server before this returns; for an
 * unknown address it instead waits about as long as that would have taken (services/send-timing.ts).
 */
export async function sendPasswordResetCode(deps: AppDeps, project: ProjectRow, input: { email: string; callbackUrl: string; clientIp?: string }): Promise<void> {
  const config = requirePasswordAuth(project);
  if (!isUrlTrustedForProject(deps.env, project.id, config, input.callbackUrl)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  // Sends per client address (services/auth-throttle.ts), counted before the address is looked up.
  await admitCountedAttempt(deps.db, { kind: "mail_send", projectId: project.id, clientIp: input.clientIp });
  const user = await findUserByAuthEmail(deps.db, project.id, input.email);
  await assertSendAllowed(deps.db, { projectId: project.id, purpose: "password_reset", email: input.email });
  const data: ResetCodeData = { user_id: user?.id ?? null };
  const created = await createVerificationCode(deps.db, {
    projectId: project.id,
    purpose: "password_reset",
    data,
    expiresInMs: PASSWORD_RESET_CODE_LIFETIME_MS,
    kind: "link",
    email: input.email,
  });
  if (!user) return sendTiming.waitLikeASend(project);
  const variables: Record<string, string> = { passwordResetLink: codeLink(input.callbackUrl, created.code) };
  if (user.display_name) variables.userDisplayName = user.display_name;
  // A delivery failure does not throw (sendEmail records it): the answer stays the same.
  await sendTiming.timedSend(project, () => sendEmail(deps, project, { to: input.email, template: "password_reset", variables, userId: user.id }));
}

/** Whether a reset code can be used (VERIFICATION_CODE_* errors otherwise); nothing changes. Like the protocol's, it looks only at the code. */
export async function checkPasswordResetCode(db: Db, project: ProjectRow, code: string): Promise<void> {
  await checkVerificationCode(db, { projectId: project.id, purpose: "password_reset", code });
}

/**
 * Sets the password of the code's user and ends all of their sessions (so whoever held the old password
 * or a stolen refresh token is out), in one transaction with using the code: if anything fails, the code
 * stays usable and nothing changed. The code is checked and the password hashed before the transaction,
 * so no row stays locked while argon2 runs; the use itself is still decided atomically inside it.
 */
export async function resetPassword(db: Db, project: ProjectRow, input: { code: string; password: string }): Promise<void> {
  requirePasswordAuth(project);
  const presented = { projectId: project.id, purpose: "password_reset" as const, code: input.code };
  // The protocol reports a bad code before a bad password.
  await checkVerificationCode(db, presented);
  assertPasswordRequirements(input.password);
  const passwordHash = await hashPassword(input.password);
  await useVerificationCode(db, presented, async (data, trx) => {
    const userId = (data as ResetCodeData).user_id;
    if (!userId) throw new KnownErrors.VerificationCodeNotFound();
    // A user without a password gets one (has_password): user.updated; a replaced one shows no change.
    const updated = await emittingUserUpdated(trx, project.id, userId, () =>
      trx.updateTable("users").set({ password_hash: passwordHash }).where("project_id", "=", project.id).where("id", "=", userId).executeTakeFirst(),
    );
    if (Number(updated.numUpdatedRows) === 0) throw new KnownErrors.UserNotFound();
    await revokeUserSessions(trx, userId);
  });
}
