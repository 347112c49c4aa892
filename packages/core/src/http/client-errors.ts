import { KnownError } from "@latchkey/protocol/errors/known-error";

/**
 * The known errors the client library itself acts on, by code. Checking codes rather than classes keeps the
 * catalogue out of browser bundles (its classes carry ~28 KB of messages): a response's error is rebuilt as
 * its class only when the application imports the catalogue (`KnownErrors`), and as a plain `KnownError`
 * with the server's code, message and details otherwise. The family sets are checked against the
 * catalogue's families by a test.
 */
export const INVALID_ACCESS_TOKEN = new Set(["UNPARSABLE_ACCESS_TOKEN", "ACCESS_TOKEN_EXPIRED", "INVALID_PROJECT_FOR_ACCESS_TOKEN"]);
export const INVALID_ADMIN_ACCESS_TOKEN = new Set([
  "UNPARSABLE_ADMIN_ACCESS_TOKEN",
  "ADMIN_ACCESS_TOKEN_EXPIRED",
  "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN",
  "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
]);
export const REFRESH_TOKEN_ERROR = new Set(["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "CANNOT_DELETE_CURRENT_SESSION", "PROVIDER_REJECTED"]);
export const CANNOT_GET_OWN_USER_WITHOUT_USER = new Set(["CANNOT_GET_OWN_USER_WITHOUT_USER"]);
export const USER_NOT_FOUND = new Set(["USER_NOT_FOUND"]);

/** Whether `error` is a known error with one of `codes`. */
export function isKnownError(error: unknown, codes: ReadonlySet<string>): error is KnownError {
  return error instanceof KnownError && codes.has(error.code);
}
export const ITEM_QUANTITY_INSUFFICIENT_AMOUNT = new Set(["ITEM_QUANTITY_INSUFFICIENT_AMOUNT"]);
export const STRIPE_ACCOUNT_INFO_NOT_FOUND = new Set(["STRIPE_ACCOUNT_INFO_NOT_FOUND"]);
