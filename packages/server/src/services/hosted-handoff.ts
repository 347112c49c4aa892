import { timingSafeEqual } from "node:crypto";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { HostedHandoffBody, HostedHandoffSignInBody, SignInResponse } from "@latchkey/protocol/schemas";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { pkceChallengeOf } from "./oauth-flow-records.js";
import type { ProjectRow } from "./projects.js";
import { signInUser } from "./sessions.js";
import { findUserRow } from "./user-rows.js";
import { consumeVerificationCode, createVerificationCode } from "./verification-codes.js";

/**
 * The session hand-off from the hosted handler pages to the app (issue 16 §5). A person signs in on the
 * server's hosted page, whose session lives in that origin's cookies; the app on its own origin gets a
 * session of its own through a one-time code, as an OAuth client does (RFC 6749 §4.1 with PKCE, RFC 7636):
 * - the hosted page, signed in, asks for a code for the app's page and the app's PKCE challenge;
 * - the app trades the code with the verifier behind that challenge, from the same page, for a new session.
 * The code is one of the verification codes (purpose `hosted_handoff`): 45 random characters stored by hash,
 * five minutes, used up by the first attempt, right or wrong. Two-factor authentication was passed on the
 * hosted page already, so the app's session is not asked for it again.
 */

/** As long as an OAuth authorization code lives: the app trades it the moment its page loads. */
export const HANDOFF_CODE_LIFETIME_MS = 5 * 60_000;

interface HandoffData {
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
}

/** A code for the signed-in `userId`; REDIRECT_URL_NOT_WHITELISTED for a page the project does not trust. */
export async function createHandoffCode(db: Db, env: Env, project: ProjectRow, userId: string, input: HostedHandoffBody): Promise<{ code: string }> {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!isUrlTrustedForProject(env, project.id, config, input.redirect_uri)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  const data: HandoffData = { user_id: userId, redirect_uri: input.redirect_uri, code_challenge: input.code_challenge };
  const created = await createVerificationCode(db, {
    projectId: project.id,
    purpose: "hosted_handoff",
    data,
    expiresInMs: HANDOFF_CODE_LIFETIME_MS,
    maxAttempts: 1,
    kind: "link",
  });
  return { code: created.code };
}

/**
 * The app's half: a new session for the code's user. The verification-code errors for an unknown, used or
 * expired code; VERIFICATION_CODE_NOT_FOUND too when the verifier or the page differ from the code's, since
 * for this caller such a code does not exist (the code is used up all the same).
 */
export async function signInWithHandoffCode(db: Db, env: Env, project: ProjectRow, input: HostedHandoffSignInBody): Promise<SignInResponse> {
  const data = (await consumeVerificationCode(db, { projectId: project.id, purpose: "hosted_handoff", code: input.code })) as HandoffData;
  if (data.redirect_uri !== input.redirect_uri || !sameString(pkceChallengeOf(input.code_verifier), data.code_challenge)) {
    throw new KnownErrors.VerificationCodeNotFound();
  }
  // Deleted since the code was made: nobody to sign in.
  const user = await findUserRow(db, project.id, data.user_id);
  if (!user) throw new KnownErrors.VerificationCodeNotFound();
  const tokens = await signInUser(db, env, { project, userId: user.id });
  return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: false };
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
