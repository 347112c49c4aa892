import { HttpStatusError, InsecureContextError, KnownError, NetworkError, OfflineError, isSetupError } from "@latchkey/core";
import { msg } from "./i18n.js";

/** Which form field an error belongs to; `form` errors show above the submit button. */
export type ErrorField = "email" | "password" | "password-repeat" | "code" | "form";

export interface ShownError {
  field: ErrorField;
  message: string;
}

/**
 * Readable messages for the known errors a person can cause in these forms, placed next to the field they
 * concern (a function, so each message is in the language of the moment). A wrong email or password is one
 * message for the whole form: saying which part was wrong would tell anyone which emails have accounts.
 */
function known(code: string): ShownError | undefined {
  switch (code) {
    case "EMAIL_PASSWORD_MISMATCH":
      return { field: "form", message: msg("Wrong email or password.") };
    case "USER_EMAIL_ALREADY_EXISTS":
      return { field: "email", message: msg("An account with this email already exists.") };
    case "PASSWORD_TOO_SHORT":
      return { field: "password", message: msg("The password is too short.") };
    case "PASSWORD_TOO_LONG":
      return { field: "password", message: msg("The password is too long.") };
    case "PASSWORD_CONFIRMATION_MISMATCH":
      return { field: "form", message: msg("The current password is wrong.") };
    // Neutral on purpose: saying that another account has this address would tell anyone who has an account.
    case "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE":
      return { field: "email", message: msg("This email address cannot be used for signing in here. Try another address or another way to sign in.") };
    case "SIGN_UP_NOT_ENABLED":
      return { field: "form", message: msg("New accounts cannot be created here.") };
    case "PASSWORD_AUTHENTICATION_NOT_ENABLED":
      return { field: "form", message: msg("Signing in with a password is not enabled.") };
    case "VERIFICATION_CODE_NOT_FOUND":
      return { field: "code", message: msg("This code is not valid. Check it or ask for a new one.") };
    case "VERIFICATION_CODE_EXPIRED":
      return { field: "code", message: msg("This code has expired. Ask for a new one.") };
    case "VERIFICATION_CODE_ALREADY_USED":
      return { field: "code", message: msg("This code has already been used.") };
    case "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED":
      return { field: "code", message: msg("Too many wrong attempts. Ask for a new code.") };
    case "INVALID_TOTP_CODE":
      return { field: "code", message: msg("The code is invalid. Please try again.") };
    case "REDIRECT_URL_NOT_WHITELISTED":
      return { field: "form", message: msg("This page's address is not a trusted domain of the project.") };
    case "USER_NOT_FOUND":
      return { field: "form", message: msg("No account was found.") };
  }
  return undefined;
}

/** The readable, translated message for a known error code, if these elements have one. */
export function knownErrorMessage(code: string): string | undefined {
  return known(code)?.message;
}

export function describeError(error: unknown): ShownError {
  if (error instanceof KnownError) {
    const shown = known(error.code);
    if (shown) return shown;
    // A wrong project id or key: the person can do nothing about it, and the wire's text (which names headers) is
    // for the developer, whom the core has told in the console (core's http/setup-errors.ts).
    if (isSetupError(error)) return { field: "form", message: msg("Sign-in is not available right now. Please try again later.") };
    // Schema errors about the email say so in their message (e.g. "body.email must be a valid email").
    if (error.code === "SCHEMA_ERROR" && /email/i.test(error.message)) return { field: "email", message: msg("Enter a valid email address.") };
    return { field: "form", message: error.message };
  }
  // Core's pkce.ts has told the developer why in the console.
  if (error instanceof InsecureContextError) return { field: "form", message: msg("Social sign-in needs HTTPS or localhost.") };
  if (error instanceof OfflineError) return { field: "form", message: msg("You are offline. Check your connection and try again.") };
  if (error instanceof NetworkError) return { field: "form", message: msg("The server cannot be reached. Check your connection and try again.") };
  // The server's limit on mails to one address (SPEC.md has no known error for it: a plain 429).
  if (error instanceof HttpStatusError && error.status === 429) return { field: "form", message: msg("Too many emails were sent to this address. Wait a few minutes, then try again.") };
  return { field: "form", message: msg("Something went wrong. Please try again.") };
}
