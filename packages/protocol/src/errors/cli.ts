/** Errors about signing in a command-line tool through the browser (polling codes). */
import { defineKnownError } from "./known-error.js";
import type { KnownErrorDetails } from "./known-error.js";

/** The caller chooses the details; they are sent as given. */
export const InvalidPollingCodeError = defineKnownError("INVALID_POLLING_CODE", {
  status: 400,
  build: (details?: KnownErrorDetails) => ({ message: "The polling code is invalid or does not exist.", details }),
  fromDetails: (d): [KnownErrorDetails | undefined] => [d],
});

export const CliAuthError = defineKnownError("CLI_AUTH_ERROR", {
  status: 400,
  build: (message: string) => ({ message }),
  fromDetails: (d) => [d?.message],
});

export const CliAuthExpiredError = defineKnownError("CLI_AUTH_EXPIRED_ERROR", {
  status: 400,
  build: (message: string = "CLI authentication request expired. Please try again.") => ({ message }),
  fromDetails: (d) => [d?.message],
});

export const CliAuthUsedError = defineKnownError("CLI_AUTH_USED_ERROR", {
  status: 400,
  build: (message: string = "This authentication token has already been used.") => ({ message }),
  fromDetails: (d) => [d?.message],
});
