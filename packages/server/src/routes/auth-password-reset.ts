import { KnownErrors } from "@latchkey/protocol/errors";
import {
  CODE_VALID_RESPONSE,
  codeValidResponse,
  emailWithCallbackBody,
  PASSWORD_RESET_SENT_RESPONSE,
  passwordResetBody,
  passwordResetSentResponse,
  successResponse,
  verificationCodeBody,
} from "@latchkey/protocol/schemas";
import { attemptIp } from "../http/client-ip.js";
import { ANY_ACCESS, defineRoute, VERIFICATION_CODE_ERRORS } from "../http/route.js";
import { checkPasswordResetCode, resetPassword, sendPasswordResetCode } from "../services/password-reset.js";

const TAGS = ["Password"];

/**
 * `/auth/password/send-reset-code`, `/auth/password/reset/check-code` and `/auth/password/reset`, for any
 * access type (the client library calls them with its publishable key, without a user). `send-reset-code`
 * answers the same for every email, so it never tells whether an account exists.
 */
export const passwordResetRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/password/send-reset-code",
    summary: "Mail a password reset link",
    description:
      "Answers the same whether or not an account signs in with the email. For an existing account the mail has been handed to " +
      "the mail server when the answer comes; for an unknown email the answer takes about as long, without sending anything.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: emailWithCallbackBody },
    response: { description: "Sent, if an account signs in with the email.", schema: passwordResetSentResponse },
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, KnownErrors.RedirectUrlNotWhitelisted],
    handler: async (c, { auth, body }) => {
      await sendPasswordResetCode(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url, clientIp: attemptIp(c, auth.type) });
      return PASSWORD_RESET_SENT_RESPONSE;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/password/reset/check-code",
    summary: "Check a password reset code",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: verificationCodeBody },
    response: { description: "The code can be used.", schema: codeValidResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: async (c, { auth, body }) => {
      await checkPasswordResetCode(c.get("deps").db, auth.project, body.code);
      return CODE_VALID_RESPONSE;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/password/reset",
    summary: "Set a new password with a reset code",
    description: "Ends every session of the user.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: passwordResetBody },
    response: { description: "The password was set.", schema: successResponse },
    errors: [...VERIFICATION_CODE_ERRORS, KnownErrors.PasswordAuthenticationNotEnabled, KnownErrors.PasswordTooShort, KnownErrors.PasswordTooLong, KnownErrors.UserNotFound],
    handler: async (c, { auth, body }) => {
      await resetPassword(c.get("deps").db, auth.project, { code: body.code, password: body.password });
      return { success: true } as const;
    },
  }),
];
