/** Errors about contact channels (e-mail addresses): verification, primary e-mail, and use for sign-in. */
import { defineKnownError } from "./known-error.js";

const verifyToSignIn =
  " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.";

export const EmailNotVerified = defineKnownError("EMAIL_NOT_VERIFIED", {
  status: 400,
  build: () => ({ message: "The email is not verified." }),
  fromDetails: () => [],
});

export const EmailAlreadyVerified = defineKnownError("EMAIL_ALREADY_VERIFIED", {
  status: 409,
  build: () => ({ message: "The e-mail is already verified." }),
  fromDetails: () => [],
});

export const EmailNotAssociatedWithUser = defineKnownError("EMAIL_NOT_ASSOCIATED_WITH_USER", {
  status: 400,
  build: () => ({ message: "The e-mail is not associated with a user that could log in with that e-mail." }),
  fromDetails: () => [],
});

export const EmailIsNotPrimaryEmail = defineKnownError("EMAIL_IS_NOT_PRIMARY_EMAIL", {
  status: 400,
  build: (email: string, primaryEmail: string | null) => ({
    message: `The given e-mail (${email}) must equal the user's primary e-mail (${primaryEmail}).`,
    details: { email, primary_email: primaryEmail },
  }),
  fromDetails: (d) => [d?.email, d?.primary_email],
});

export const ContactChannelAlreadyUsedForAuthBySomeoneElse = defineKnownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
  status: 409,
  build: (type: "email", contactChannelValue?: string, wouldWorkIfEmailWasVerified: boolean = false) => ({
    // Without a value the protocol's message keeps both spaces around the missing part.
    message: `This ${type} ${contactChannelValue ? `"(${contactChannelValue})"` : ""} is already used for authentication by another account${wouldWorkIfEmailWasVerified ? verifyToSignIn : "."}`,
    details: {
      type,
      contact_channel_value: contactChannelValue ?? null,
      would_work_if_email_was_verified: wouldWorkIfEmailWasVerified,
    },
  }),
  fromDetails: (d) => [d?.type, d?.contact_channel_value ?? undefined, d?.would_work_if_email_was_verified ?? false],
});
