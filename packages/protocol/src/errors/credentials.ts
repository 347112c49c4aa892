/** Errors about signing up and signing in with a password, and about which sign-in methods are enabled. */
import { defineKnownError, defineKnownErrorFamily } from "./known-error.js";

export const SignUpNotEnabled = defineKnownError("SIGN_UP_NOT_ENABLED", {
  status: 400,
  build: () => ({
    message: "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.",
  }),
  fromDetails: () => [],
});

export const PasswordAuthenticationNotEnabled = defineKnownError("PASSWORD_AUTHENTICATION_NOT_ENABLED", {
  status: 400,
  build: () => ({ message: "Password authentication is not enabled for this project." }),
  fromDetails: () => [],
});

export const AnonymousAccountsNotEnabled = defineKnownError("ANONYMOUS_ACCOUNTS_NOT_ENABLED", {
  status: 400,
  build: () => ({ message: "Anonymous accounts are not enabled for this project." }),
  fromDetails: () => [],
});

/** Deliberately does not say which of the two was wrong (STYLE §5). */
export const EmailPasswordMismatch = defineKnownError("EMAIL_PASSWORD_MISMATCH", {
  status: 400,
  build: () => ({ message: "Wrong e-mail or password." }),
  fromDetails: () => [],
});

/** A new password does not meet the project's requirements. */
export const PasswordRequirementsNotMet = defineKnownErrorFamily("PASSWORD_REQUIREMENTS_NOT_MET");

export const PasswordTooShort = defineKnownError("PASSWORD_TOO_SHORT", {
  status: 400,
  parent: PasswordRequirementsNotMet,
  build: (minLength: number) => ({
    message: `Password too short. Minimum length is ${minLength}.`,
    details: { min_length: minLength },
  }),
  fromDetails: (d) => [d?.min_length],
});

export const PasswordTooLong = defineKnownError("PASSWORD_TOO_LONG", {
  status: 400,
  parent: PasswordRequirementsNotMet,
  build: (maxLength: number) => ({
    message: `Password too long. Maximum length is ${maxLength}.`,
    // camelCase on the wire, unlike its sibling's `min_length`: that is what the protocol sends.
    details: { maxLength },
  }),
  fromDetails: (d) => [d?.maxLength],
});

export const UserDoesNotHavePassword = defineKnownError("USER_DOES_NOT_HAVE_PASSWORD", {
  status: 400,
  build: () => ({ message: "This user does not have password authentication enabled." }),
  fromDetails: () => [],
});

export const PasswordConfirmationMismatch = defineKnownError("PASSWORD_CONFIRMATION_MISMATCH", {
  status: 400,
  build: () => ({ message: "Passwords do not match." }),
  fromDetails: () => [],
});
