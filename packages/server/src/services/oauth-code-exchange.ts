import { timingSafeEqual } from "node:crypto";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { AuthorizationCodeTokenResponse } from "@latchkey/protocol/schemas";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { finishSignIn } from "./mfa-gate.js";
import { consumeAuthorizationCode, pkceChallengeOf } from "./oauth-flow-records.js";
import type { ProjectRow } from "./projects.js";
import { findUserRow } from "./user-rows.js";

/**
 * The authorization_code grant of /auth/oauth/token: the code Latchkey gave the client at the end of the
 * callback, with the PKCE verifier behind the authorize request's challenge and the same redirect_uri. The code
 * is used up by the first attempt, right or wrong, so of racing exchanges exactly one can win. Every failure is
 * INVALID_AUTHORIZATION_CODE, as the protocol's server answers a refused grant. Users with MFA get the attempt
 * code (MULTI_FACTOR_AUTHENTICATION_REQUIRED), as on every other sign-in path.
 */
export async function exchangeAuthorizationCode(
  db: Db,
  env: Env,
  project: ProjectRow,
  params: { code: string; codeVerifier: string | undefined; redirectUri: string | undefined },
): Promise<AuthorizationCodeTokenResponse> {
  const grant = await consumeAuthorizationCode(db, project.id, params.code);
  if (!grant) throw new KnownErrors.InvalidAuthorizationCode();
  if (params.redirectUri !== undefined && params.redirectUri !== grant.redirectUri) throw new KnownErrors.InvalidAuthorizationCode();
  if (!params.codeVerifier || !sameString(pkceChallengeOf(params.codeVerifier), grant.codeChallenge)) throw new KnownErrors.InvalidAuthorizationCode();
  const user = await findUserRow(db, project.id, grant.userId);
  if (!user) throw new KnownErrors.InvalidAuthorizationCode();
  const signedIn = await finishSignIn(db, env, project, user, { isNewUser: grant.isNewUser });
  return {
    access_token: signedIn.access_token,
    token_type: "bearer",
    expires_in: env.accessTokenLifetimeSeconds,
    refresh_token: signedIn.refresh_token,
    scope: "legacy",
    is_new_user: grant.isNewUser,
    after_callback_redirect_url: grant.afterCallbackRedirectUrl,
  };
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
