import { HTTPException } from "hono/http-exception";
import { attemptIp } from "../http/client-ip.js";
import { DEVICE_TOKEN_HEADER, issueDeviceToken, verifyDeviceToken } from "../crypto/device-tokens.js";
import { KnownErrors } from "@latchkey/protocol/errors";
import { passwordSetBody, passwordSignInBody, passwordSignUpBody, passwordUpdateBody, signInResponse, successResponse } from "@latchkey/protocol/schemas";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { changePassword, setInitialPassword, signInWithPassword, signUpWithPassword } from "../services/password-auth.js";

const TAGS = ["Password"];

/**
 * `/auth/password/*`: sign-up and sign-in with email and password (any access type, as the client
 * library calls them with its publishable key), and changing or setting the signed-in user's password.
 * Sign-up and sign-in answer with the sign-in response `{ access_token, refresh_token, user_id, is_new_user }`, and
 * a device token for the account in `x-latchkey-device-token` (crypto/device-tokens.ts).
 */
export const passwordAuthRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/password/sign-up",
    summary: "Sign up with email and password",
    description: "Signed in as an anonymous user, the same user is upgraded instead of a new one being created.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: passwordSignUpBody },
    response: { description: "The new user, signed in.", schema: signInResponse },
    errors: [
      KnownErrors.PasswordAuthenticationNotEnabled,
      KnownErrors.SignUpNotEnabled,
      KnownErrors.RedirectUrlNotWhitelisted,
      KnownErrors.PasswordTooShort,
      KnownErrors.PasswordTooLong,
      KnownErrors.UserWithEmailAlreadyExists,
    ],
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      const signedUp = await signUpWithPassword(db, env, auth.project, {
        email: body.email,
        password: body.password,
        verificationCallbackUrl: body.verification_callback_url,
        currentUser: auth.user,
        log: c.get("log"),
      });
      c.header(DEVICE_TOKEN_HEADER, issueDeviceToken(env.serverSecret, auth.project.id, body.email));
      return signedUp;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/password/sign-in",
    summary: "Sign in with email and password",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: passwordSignInBody },
    response: { description: "The user, signed in.", schema: signInResponse },
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, KnownErrors.EmailPasswordMismatch, KnownErrors.MultiFactorAuthenticationRequired],
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      // A browser that signed in to this account before is counted on its own, not against the account.
      const device = verifyDeviceToken([env.serverSecret, ...env.previousServerSecrets], auth.project.id, body.email, c.req.header(DEVICE_TOKEN_HEADER));
      const signedIn = await signInWithPassword(db, env, auth.project, body.email, body.password, { clientIp: attemptIp(c, auth.type), device });
      c.header(DEVICE_TOKEN_HEADER, issueDeviceToken(env.serverSecret, auth.project.id, body.email, device));
      return signedIn;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/password/update",
    summary: "Change the signed-in user's password",
    description: "Checks the old password, and ends every other session of the user.",
    tags: TAGS,
    access: ANY_ACCESS,
    requiresUser: true,
    request: { body: passwordUpdateBody },
    response: { description: "Changed.", schema: successResponse },
    errors: [
      KnownErrors.PasswordAuthenticationNotEnabled,
      KnownErrors.PasswordTooShort,
      KnownErrors.PasswordTooLong,
      KnownErrors.UserDoesNotHavePassword,
      KnownErrors.PasswordConfirmationMismatch,
    ],
    handler: async (c, { auth, body }) => {
      await changePassword(c.get("deps").db, auth.project, auth.user!, {
        oldPassword: body.old_password,
        newPassword: body.new_password,
        keepSessionId: auth.refreshTokenId,
      });
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/password/set",
    summary: "Give the signed-in user a first password",
    description: "For a user without a password; one who has a password gets a plain 400.",
    tags: TAGS,
    access: ANY_ACCESS,
    requiresUser: true,
    request: { body: passwordSetBody },
    response: { description: "Set.", schema: successResponse },
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, KnownErrors.PasswordTooShort, KnownErrors.PasswordTooLong],
    handler: async (c, { auth, body }) => {
      // The protocol has no known error for this case; it answers with a plain 400.
      if (!(await setInitialPassword(c.get("deps").db, auth.project, auth.user!, body.password))) {
        throw new HTTPException(400, { message: "User already has a password set." });
      }
      return { success: true } as const;
    },
  }),
];
