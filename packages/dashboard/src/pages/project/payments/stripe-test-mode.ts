import { KnownError } from "@latchkey/core";
import { errorMessage } from "../../../error-message.js";

/**
 * Whether a refusal of the Stripe routes means the server has no Stripe key (every project in test mode),
 * rather than a failure worth showing as one.
 */
export function isTestModeRefusal(error: unknown): boolean {
  if (!error) return false;
  if (error instanceof KnownError && error.code === "PAYMENTS_TEST_MODE") return true;
  return /LATCHKEY_STRIPE_SECRET_KEY|test mode/i.test(errorMessage(error));
}
