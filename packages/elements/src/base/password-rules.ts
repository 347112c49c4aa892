import type { ShownError } from "./errors.js";
import { msg, str } from "./i18n.js";

/** SPEC.md §5: passwords are 8 to 70 characters (counted in UTF-16 units, as the server counts them). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

/**
 * Checks a new password and its repetition before anything is sent, with the messages a person can act on;
 * the server checks again and its errors are shown the same way.
 */
export function checkNewPassword(password: string, repeat: string): ShownError | null {
  if (password.length < PASSWORD_MIN_LENGTH) return { field: "password", message: msg(str`The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`) };
  if (password.length > PASSWORD_MAX_LENGTH) return { field: "password", message: msg(str`The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`) };
  if (password !== repeat) return { field: "password-repeat", message: msg("Passwords do not match.") };
  return null;
}
