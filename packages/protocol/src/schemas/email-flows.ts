import { z } from "zod";
import { botChallengeFields, callbackUrl } from "./auth.js";
import { emailAddress } from "./project-config.js";

/**
 * Wire shapes of the flows that go through a person's inbox with a one-time code: password reset
 * (`/auth/password/send-reset-code`, `/auth/password/reset`, `/auth/password/reset/check-code`), magic link /
 * one-time-code sign-in (`/auth/otp/send-sign-in-code`, `/auth/otp/sign-in`, `/auth/otp/sign-in/check-code`)
 * and the admin's sign-in invitation (`/internal/send-sign-in-invitation`). SPEC.md §7 "Auth".
 */

/** Every code is 45 characters (for OTP sign-in: the 6 typed characters followed by the 39-character nonce). */
export const VERIFICATION_CODE_LENGTH = 45;

/** A one-time code as the client sends it back; any other length is a schema error, as in the protocol. */
export const verificationCode = z.string().refine((value) => value.length === VERIFICATION_CODE_LENGTH, {
  message: `must be exactly ${VERIFICATION_CODE_LENGTH} characters`,
});

/** `{ email, callback_url }`: the body of `send-reset-code`, `send-sign-in-code` and `send-sign-in-invitation`. */
export const emailWithCallbackBody = z.strictObject({
  email: emailAddress,
  callback_url: callbackUrl,
});
export type EmailWithCallbackBody = z.infer<typeof emailWithCallbackBody>;

/** `POST /auth/otp/send-sign-in-code`: the address and link base, and (2.8.108) a bot challenge's answer, ignored. */
export const sendSignInCodeBody = emailWithCallbackBody.extend(botChallengeFields);
export type SendSignInCodeBody = z.infer<typeof sendSignInCodeBody>;

/** `{ code }`: using or checking a code (`/auth/otp/sign-in`, the `check-code` endpoints). */
export const verificationCodeBody = z.strictObject({
  code: verificationCode,
});
export type VerificationCodeBody = z.infer<typeof verificationCodeBody>;

/** `POST /auth/password/reset` */
export const passwordResetBody = z.strictObject({
  code: verificationCode,
  // Length rules are reported as PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, as for sign-up.
  password: z.string(),
});
export type PasswordResetBody = z.infer<typeof passwordResetBody>;

/**
 * The answer of `send-reset-code`, whatever the email: the protocol's own wording, which promises nothing
 * about whether an account exists.
 */
export const PASSWORD_RESET_SENT_RESPONSE = { success: "maybe, only if user with e-mail exists" } as const;
export const passwordResetSentResponse = z.strictObject({ success: z.literal(PASSWORD_RESET_SENT_RESPONSE.success) });

/** The answer of the `check-code` endpoints for a code that can still be used. */
export const CODE_VALID_RESPONSE = { is_code_valid: true } as const;
export const codeValidResponse = z.strictObject({ is_code_valid: z.literal(true) });

/** The answer of `send-sign-in-code`: the code's nonce, which the client appends to the OTP the user types. */
export const sendSignInCodeResponse = z.strictObject({ nonce: z.string() });
export type SendSignInCodeResponse = z.infer<typeof sendSignInCodeResponse>;
