/** Errors about user accounts: finding them and creating them. */
import { defineKnownError } from "./known-error.js";

export const UserWithEmailAlreadyExists = defineKnownError("USER_EMAIL_ALREADY_EXISTS", {
  status: 409,
  build: (email: string, wouldWorkIfEmailWasVerified: boolean = false) => ({
    message: `A user with email ${JSON.stringify(email)} already exists${
      wouldWorkIfEmailWasVerified
        ? " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."
        : "."
    }`,
    details: { email, would_work_if_email_was_verified: wouldWorkIfEmailWasVerified },
  }),
  fromDetails: (d) => [d?.email, d?.would_work_if_email_was_verified ?? false],
});

export const CannotGetOwnUserWithoutUser = defineKnownError("CANNOT_GET_OWN_USER_WITHOUT_USER", {
  status: 400,
  build: () => ({ message: "You have specified 'me' as a userId, but did not provide authentication for a user." }),
  fromDetails: () => [],
});

export const UserIdDoesNotExist = defineKnownError("USER_ID_DOES_NOT_EXIST", {
  status: 400,
  build: (userId: string) => ({
    message: `The given user with the ID ${userId} does not exist.`,
    details: { user_id: userId },
  }),
  fromDetails: (d) => [d?.user_id],
});

export const UserNotFound = defineKnownError("USER_NOT_FOUND", {
  status: 404,
  build: () => ({ message: "User not found." }),
  fromDetails: () => [],
});

/** Why a user is restricted (newer protocol, 2.8.108): they may sign in, but not yet use the app. */
export type RestrictedReason = { type: "anonymous" | "email_not_verified" | "restricted_by_administrator" };

/** Newer protocol (2.8.108) only: a restricted user's token, sent without allowing restricted users. */
export const RestrictedUserNotAllowed = defineKnownError("RESTRICTED_USER_NOT_ALLOWED", {
  status: 403,
  build: (restrictedReason: RestrictedReason) => ({
    message: `The user in the access token is in restricted state. Reason: ${restrictedReason.type}. Please pass the X-Stack-Allow-Restricted-User header if this is intended.`,
    details: { restricted_reason: restrictedReason },
  }),
  fromDetails: (d): [RestrictedReason] => [d?.restricted_reason ?? { type: "anonymous" }],
});
