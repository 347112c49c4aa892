/** Errors about multi-factor authentication (TOTP). */
import { defineKnownError } from "./known-error.js";

/** Sign-in succeeded on the first factor; `attempt_code` continues it with the second. */
export const MultiFactorAuthenticationRequired = defineKnownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", {
  status: 400,
  build: (attemptCode: string) => ({
    message: "Multi-factor authentication is required for this user.",
    details: { attempt_code: attemptCode },
  }),
  fromDetails: (d) => [d?.attempt_code],
});

export const InvalidTotpCode = defineKnownError("INVALID_TOTP_CODE", {
  status: 400,
  build: () => ({ message: "The TOTP code is invalid. Please try again." }),
  fromDetails: () => [],
});
