import { timingSafeEqual } from "node:crypto";
import { HTTPException } from "hono/http-exception";
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
 * callback, with the PKCE verifier behind the authorize request's challenge (S256, or `plain`: stored as its S256)
 * and the same redirect_uri. The code is used up by the first attempt, right or wrong, so of racing exchanges
 * exactly one can win. A refused grant is INVALID_AUTHORIZATION_CODE, and another redirect_uri the protocol
 * server's own 400 text. Users with MFA get the attempt code (MULTI_FACTOR_AUTHENTICATION_REQUIRED), as on every
 * other sign-in path.
 */
export async function exchangeAuthorizationCode(
  db: Db,
  env: Env,
  project: ProjectRow,
  params: { code: string; codeVerifier: string | undefined; redirectUri: string | undefined },
): Promise<AuthorizationCodeTokenResponse> {
  const grant = await consumeAuthorizationCode(db, project.id, params.code);
  if (!grant) throw new KnownErrors.InvalidAuthorizationCode();
  if (params.redirectUri !== undefined && params.redirectUri !== grant.redirectUri) {
    throw new HTTPException(400, { message: "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code." });
  }
  if (!params.codeVerifier || !sameString(pkceChallengeOf(params.codeVerifier), grant.codeChallenge)) throw new KnownErrors.InvalidAuthorizationCode();
  const user = await findUserRow(db, project.id, grant.userId);
  if (!user) throw new KnownErrors.InvalidAuthorizationCode();
  const signedIn = await finishSignIn(db, env, project, user, { isNewUser: grant.isNewUser });
  // The protocol server's OAuth library answers with the lifetime of its own token record (an hour, less the
  // second the exchange took), not the access token's: clients refresh by the token's `exp`.
  return {
    access_token: signedIn.access_token,
    refresh_token: signedIn.refresh_token,
    token_type: "Bearer",
    expires_in: 3599,
    scope: "legacy",
    is_new_user: grant.isNewUser,
    newUser: grant.isNewUser,
    after_callback_redirect_url: grant.afterCallbackRedirectUrl,
    afterCallbackRedirectUrl: grant.afterCallbackRedirectUrl,
  };
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
