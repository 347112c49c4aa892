import { errorMessage } from "../../../error-message.js";

/**
 * Whether a refusal of the Stripe routes means the server has no Stripe key (every project in test mode):
 * its 400 names the missing setting. Only for a server that does not say so in the dashboard's config.
 */
export function isTestModeRefusal(error: unknown): boolean {
  return error ? /LATCHKEY_STRIPE_SECRET_KEY/.test(errorMessage(error)) : false;
}
