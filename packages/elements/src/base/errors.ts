import { KnownError, NetworkError } from "@latchkey/core";

/** Which form field an error belongs to; `form` errors show above the submit button. */
export type ErrorField = "email" | "password" | "password-repeat" | "code" | "form";

export interface ShownError {
  field: ErrorField;
  message: string;
}

/**
 * Readable messages for the known errors a person can cause in these forms, placed next to the field they
 * concern. A wrong email or password is one message for the whole form: saying which part was wrong would
 * tell anyone which emails have accounts.
 */
const KNOWN: Record<string, ShownError> = {
  EMAIL_PASSWORD_MISMATCH: { field: "form", message: "Wrong email or password." },
  USER_EMAIL_ALREADY_EXISTS: { field: "email", message: "An account with this email already exists." },
  PASSWORD_TOO_SHORT: { field: "password", message: "The password is too short." },
  PASSWORD_TOO_LONG: { field: "password", message: "The password is too long." },
  SIGN_UP_NOT_ENABLED: { field: "form", message: "New accounts cannot be created here." },
  PASSWORD_AUTHENTICATION_NOT_ENABLED: { field: "form", message: "Signing in with a password is not enabled." },
  VERIFICATION_CODE_NOT_FOUND: { field: "code", message: "This code is not valid. Check it or ask for a new one." },
  VERIFICATION_CODE_EXPIRED: { field: "code", message: "This code has expired. Ask for a new one." },
  VERIFICATION_CODE_ALREADY_USED: { field: "code", message: "This code has already been used." },
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: { field: "code", message: "Too many wrong attempts. Ask for a new code." },
  INVALID_TOTP_CODE: { field: "code", message: "The code is invalid. Please try again." },
  REDIRECT_URL_NOT_WHITELISTED: { field: "form", message: "This page's address is not a trusted domain of the project." },
  USER_NOT_FOUND: { field: "form", message: "No account was found." },
};

export function describeError(error: unknown): ShownError {
  if (error instanceof KnownError) {
    const known = KNOWN[error.code];
    if (known) return known;
    // Schema errors about the email say so in their message (e.g. "body.email must be a valid email").
    if (error.code === "SCHEMA_ERROR" && /email/i.test(error.message)) return { field: "email", message: "Enter a valid email address." };
    return { field: "form", message: error.message };
  }
  if (error instanceof NetworkError) return { field: "form", message: error.message };
  return { field: "form", message: "Something went wrong. Please try again." };
}
