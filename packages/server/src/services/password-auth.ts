import { KnownErrors } from "@latchkey/protocol/errors";
import { admitAttemptReading, type SettleWithin } from "./auth-throttle.js";
import { passwordRequirementProblem, type SignInResponse } from "@latchkey/protocol/schemas";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from "../crypto/passwords.js";
import type { Logger } from "pino";
import { sendSignUpEmailVerification } from "./email-verification.js";
import { finishSignIn } from "./mfa-gate.js";
import type { ProjectRow } from "./projects.js";
import { revokeUserSessions, signInUser } from "./sessions.js";
import { createPersonalTeam, createUser, findUserByAuthEmail, isUniqueViolation, userByAuthEmailQuery } from "./users.js";
import type { UserRow } from "./user-rows.js";
import { emitIfUserReadChanged, emittingUserUpdated, watchUserRead } from "./user-updated-events.js";

/**
 * Email-and-password authentication (SPEC.md §7 "Auth"): sign-up (also upgrading an anonymous user),
 * sign-in, and changing or setting a signed-in user's password.
 */

const configOf = (project: ProjectRow): ProjectConfig => renderProjectConfig(project.config_override as ConfigObject);

function requirePasswordAuth(config: ProjectConfig): void {
  if (!config.auth.password.allowSignIn) throw new KnownErrors.PasswordAuthenticationNotEnabled();
}

/** PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG for a password that is about to be stored. */
export function assertPasswordRequirements(password: string): void {
  const problem = passwordRequirementProblem(password);
  if (!problem) return;
  if ("tooShort" in problem) throw new KnownErrors.PasswordTooShort(problem.tooShort);
  throw new KnownErrors.PasswordTooLong(problem.tooLong);
}

export interface PasswordSignUp {
  email: string;
  password: string;
  verificationCallbackUrl?: string;
  /** The user the request is signed in as; an anonymous one is upgraded instead of creating a new user. */
  currentUser: UserRow | null;
  /** The request's logger, for the verification mail's delivery log lines. */
  log: Logger;
}

export async function signUpWithPassword(db: Db, env: Env, project: ProjectRow, input: PasswordSignUp): Promise<SignInResponse> {
  const config = configOf(project);
  requirePasswordAuth(config);
  if (!config.auth.allowSignUp) throw new KnownErrors.SignUpNotEnabled();
  if (input.verificationCallbackUrl !== undefined && !isUrlTrustedForProject(env, project.id, config, input.verificationCallbackUrl)) {
    throw new KnownErrors.RedirectUrlNotWhitelisted();
  }
  assertPasswordRequirements(input.password);
  // Checked up front so a taken email costs no hash; the unique index still decides concurrent sign-ups.
  if (await findUserByAuthEmail(db, project.id, input.email)) throw new KnownErrors.UserWithEmailAlreadyExists(input.email);
  const passwordHash = await hashPassword(input.password);

  const upgraded = input.currentUser?.is_anonymous ? await upgradeAnonymousUser(db, project, input.currentUser.id, input.email, passwordHash) : undefined;
  const user =
    upgraded ?? (await createUser(db, project, { primaryEmail: input.email, primaryEmailVerified: false, primaryEmailAuthEnabled: true, passwordHash }));
  if (input.verificationCallbackUrl !== undefined) {
    // Never fails the sign-up: the user exists now and can ask for another link.
    await sendSignUpEmailVerification({ db, env, log: input.log }, project, {
      userId: user.id,
      userDisplayName: user.display_name,
      email: input.email,
      callbackUrl: input.verificationCallbackUrl,
    });
  }
  const tokens = await signInUser(db, env, { project, userId: user.id });
  return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: true };
}

/**
 * Turns an anonymous user into a regular one with this email and password, keeping its id (and so
 * everything the anonymous user already owns). Undefined when the user is no longer anonymous. This is
 * the user's sign-up, so it is when the personal team of `create_team_on_sign_up` is created (anonymous
 * users get none), unless the user already joined a team meanwhile.
 */
async function upgradeAnonymousUser(db: Db, project: ProjectRow, userId: string, email: string, passwordHash: string): Promise<UserRow | undefined> {
  const projectId = project.id;
  try {
    return await db.transaction().execute(async (trx) => {
      // The upgrade is the anonymous user's sign-up (is_anonymous, has_password, primary_email…): user.updated.
      const watch = await watchUserRead(trx, projectId, userId);
      const user = await trx
        .updateTable("users")
        .set({ password_hash: passwordHash, is_anonymous: false })
        .where("id", "=", userId)
        .where("project_id", "=", projectId)
        .where("is_anonymous", "=", true)
        .returningAll()
        .executeTakeFirst();
      if (!user) return undefined;
      await trx.updateTable("contact_channels").set({ is_primary: false }).where("user_id", "=", userId).where("type", "=", "email").where("is_primary", "=", true).execute();
      await trx
        .insertInto("contact_channels")
        .values({ project_id: projectId, user_id: userId, type: "email", value: email, is_verified: false, is_primary: true, used_for_auth: true })
        .onConflict((oc) => oc.columns(["user_id", "type", "value"]).doUpdateSet({ is_primary: true, used_for_auth: true }))
        .execute();
      const inATeam = await trx.selectFrom("team_members").select("team_id").where("user_id", "=", userId).executeTakeFirst();
      const upgraded = configOf(project).teams.createPersonalTeamOnSignUp && !inATeam ? await createPersonalTeam(trx, project, userId, user.display_name ?? email) : user;
      await emitIfUserReadChanged(watch);
      return upgraded;
    });
  } catch (error) {
    if (isUniqueViolation(error, "contact_channels_auth_value")) throw new KnownErrors.UserWithEmailAlreadyExists(email);
    throw error;
  }
}

/** What the brute-force limits count a password sign-in against, besides the address as presented. */
export interface PasswordAttemptSource {
  /** The client's address (http/client-ip.ts `attemptIp`). */
  clientIp?: string;
  /** The device of a valid device token for the address (crypto/device-tokens.ts): counted instead of the account. */
  device?: string;
}

/**
 * Signs in with email and password. Unknown emails and accounts without a password cost one hash
 * verification too, and every failure is the same EMAIL_PASSWORD_MISMATCH, so neither the answer nor
 * its timing tells whether an account exists (STYLE §5).
 */
export async function signInWithPassword(db: Db, env: Env, project: ProjectRow, email: string, password: string, source: PasswordAttemptSource = {}): Promise<SignInResponse> {
  requirePasswordAuth(configOf(project));
  // Brute-force limits (services/auth-throttle.ts): keyed by the address as presented, known or not. The attempt
  // takes its slot in the statement that looks the account up, and gives it back in the one that makes the session,
  // so the limits cost a sign-in no round trip of its own: two statements in all.
  const attempt = { kind: "password" as const, projectId: project.id, account: email, ...source };
  const read = {
    shape: "user by auth email",
    values: { projectId: project.id, email },
    // What the sign-in needs of the user: the hash, and whether a second factor is due (services/mfa-gate.ts).
    build: (v: Record<string, unknown>) => userByAuthEmailQuery(db, v.projectId as string, v.email as string).select(["users.id", "users.password_hash", "users.totp_secret"]),
  };
  const { admission, row: user } = await admitAttemptReading(db, attempt, read);
  let matches: boolean;
  try {
    const stored = user?.password_hash ?? null;
    matches = stored !== null ? await verifyPassword(password, stored) : await verifyAgainstDummy(password);
  } catch (error) {
    await admission.released();
    throw error;
  }
  const hash = user?.password_hash ?? null;
  if (!user || hash === null || !matches) {
    await admission.failed();
    throw new KnownErrors.EmailPasswordMismatch();
  }
  // The slot is given back (and the account's count cleared) in the session's statement.
  return admission.succeededWithin((settle) => finishPasswordSignIn(db, env, project, user, hash, password, settle));
}

async function finishPasswordSignIn(
  db: Db,
  env: Env,
  project: ProjectRow,
  user: Pick<UserRow, "id" | "totp_secret">,
  hash: string,
  password: string,
  settle: SettleWithin | undefined,
): Promise<SignInResponse> {
  if (needsRehash(hash)) {
    // An imported (or older-parameter) hash is replaced now that we know the password; only if it is
    // still the stored one, so a concurrent password change is never overwritten.
    await db.updateTable("users").set({ password_hash: await hashPassword(password) }).where("id", "=", user.id).where("password_hash", "=", hash).execute();
  }
  // Users with a TOTP secret get MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code instead of tokens.
  return finishSignIn(db, env, project, user, { isNewUser: false, alongside: settle });
}

/**
 * Changes a signed-in user's password after checking the old one, and ends every other session of the
 * user (a changed password is how a user locks out whoever else knew it). `keepSessionId` is the session
 * the request came from.
 */
export async function changePassword(
  db: Db,
  project: ProjectRow,
  user: UserRow,
  input: { oldPassword: string; newPassword: string; keepSessionId: string | null },
): Promise<void> {
  requirePasswordAuth(configOf(project));
  assertPasswordRequirements(input.newPassword);
  if (user.password_hash === null) throw new KnownErrors.UserDoesNotHavePassword();
  if (!(await verifyPassword(input.oldPassword, user.password_hash))) throw new KnownErrors.PasswordConfirmationMismatch();
  const newHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("users")
      .set({ password_hash: newHash })
      .where("id", "=", user.id)
      .where("password_hash", "=", user.password_hash)
      .executeTakeFirst();
    // Someone changed the password since we checked the old one: the old one no longer confirms anything.
    if (Number(updated.numUpdatedRows) === 0) throw new KnownErrors.PasswordConfirmationMismatch();
    await revokeUserSessions(trx, user.id, input.keepSessionId ? { except: input.keepSessionId } : {});
  });
}

/** Gives a signed-in user without a password one; false when the user already has a password. */
export async function setInitialPassword(db: Db, project: ProjectRow, user: UserRow, password: string): Promise<boolean> {
  requirePasswordAuth(configOf(project));
  assertPasswordRequirements(password);
  if (user.password_hash !== null) return false;
  const hash = await hashPassword(password);
  // has_password and auth_with_email change: user.updated.
  const updated = await db
    .transaction()
    .execute((trx) =>
      emittingUserUpdated(trx, project.id, user.id, () => trx.updateTable("users").set({ password_hash: hash }).where("id", "=", user.id).where("password_hash", "is", null).executeTakeFirst()),
    );
  return Number(updated.numUpdatedRows) > 0;
}
