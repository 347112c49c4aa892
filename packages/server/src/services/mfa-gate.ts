import type { SignInResponse } from "@latchkey/protocol/schemas";
import type { Env } from "../env.js";
import type { ProjectRow } from "./projects.js";
import { signInUser } from "./sessions.js";
import type { Executor } from "./verification-codes.js";

/**
 * The last step of every sign-in path (password, one-time code, passkey, later OAuth). A user with a TOTP
 * secret gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code instead of tokens (SPEC.md §4);
 * `POST /auth/mfa/sign-in` finishes it. Everyone else gets a session now.
 *
 * TODO(issue 8): the MFA check (being written); until then every user gets a session.
 */
export async function finishSignIn(
  db: Executor,
  env: Env,
  project: ProjectRow,
  user: { id: string; totp_secret: Uint8Array | null },
  options: { isNewUser: boolean },
): Promise<SignInResponse> {
  const tokens = await signInUser(db as Parameters<typeof signInUser>[0], env, { projectId: project.id, userId: user.id });
  return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: options.isNewUser };
}
