/** Errors about one-time verification codes (e-mail verification, magic links, password reset, …). */
import { defineKnownError, defineKnownErrorFamily } from "./known-error.js";

/** Every error about a verification code that cannot be used. */
export const VerificationCodeError = defineKnownErrorFamily("VERIFICATION_ERROR");

export const VerificationCodeNotFound = defineKnownError("VERIFICATION_CODE_NOT_FOUND", {
  status: 404,
  parent: VerificationCodeError,
  build: () => ({ message: "The verification code does not exist for this project." }),
  fromDetails: () => [],
});

export const VerificationCodeExpired = defineKnownError("VERIFICATION_CODE_EXPIRED", {
  status: 400,
  parent: VerificationCodeError,
  build: () => ({ message: "The verification code has expired." }),
  fromDetails: () => [],
});

export const VerificationCodeAlreadyUsed = defineKnownError("VERIFICATION_CODE_ALREADY_USED", {
  status: 409,
  parent: VerificationCodeError,
  build: () => ({ message: "The verification link has already been used." }),
  fromDetails: () => [],
});

export const VerificationCodeMaxAttemptsReached = defineKnownError("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", {
  status: 400,
  parent: VerificationCodeError,
  build: () => ({
    message: "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.",
  }),
  fromDetails: () => [],
});
