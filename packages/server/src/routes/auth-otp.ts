import { KnownErrors } from "@latchkey/protocol/errors";
import { CODE_VALID_RESPONSE, codeValidResponse, sendSignInCodeBody, sendSignInCodeResponse, signInResponse, verificationCodeBody } from "@latchkey/protocol/schemas";
import { attemptIp } from "../http/client-ip.js";
import { ANY_ACCESS, defineRoute, VERIFICATION_CODE_ERRORS } from "../http/route.js";
import { checkSignInCode, sendSignInCode, signInWithCode } from "../services/otp-sign-in.js";

const TAGS = ["One-time code"];

/**
 * `/auth/otp/send-sign-in-code`, `/auth/otp/sign-in` and `/auth/otp/sign-in/check-code` (magic link and
 * one-time code), for any access type. `sign-in` answers with the sign-in response, `is_new_user` telling
 * whether the code made a new account.
 */
export const otpAuthRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/otp/send-sign-in-code",
    summary: "Mail a sign-in link and one-time code",
    description:
      "A new email signs up with the code (when sign-up is enabled). The mail has been handed to the mail server when the answer comes. " +
      "Answers a plain 403 when one-time-code sign-in is off.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: sendSignInCodeBody },
    response: { description: "The code's nonce, which the client appends to the code the user types.", schema: sendSignInCodeResponse },
    errors: [KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.SignUpNotEnabled, KnownErrors.UserWithEmailAlreadyExists],
    handler: (c, { auth, body }) => sendSignInCode(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url, clientIp: attemptIp(c, auth.type) }),
  }),
  defineRoute({
    method: "post",
    path: "/auth/otp/sign-in/check-code",
    summary: "Check a sign-in code",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: verificationCodeBody },
    response: { description: "The code can be used.", schema: codeValidResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: async (c, { auth, body }) => {
      await checkSignInCode(c.get("deps").db, auth.project, body.code, attemptIp(c, auth.type));
      return CODE_VALID_RESPONSE;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/otp/sign-in",
    summary: "Sign in with a code",
    description: "The whole 45-character code: from the link, or the typed code followed by the nonce.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: verificationCodeBody },
    response: { description: "The user, signed in; `is_new_user` when the code made the account.", schema: signInResponse },
    errors: [...VERIFICATION_CODE_ERRORS, KnownErrors.SignUpNotEnabled, KnownErrors.UserWithEmailAlreadyExists, KnownErrors.MultiFactorAuthenticationRequired],
    handler: (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      return signInWithCode(db, env, auth.project, body.code, attemptIp(c, auth.type));
    },
  }),
];
