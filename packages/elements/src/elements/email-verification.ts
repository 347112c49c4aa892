import type { ClientApp } from "@latchkey/core";
import { CodeLinkElement } from "../base/code-link-element.js";
import { msg } from "../base/i18n.js";

/**
 * The page an email-verification mail links to: verifies the address with the link's code.
 *
 * @element auth-email-verification
 * @fires auth-email-verified - After the address was verified.
 * @attr code - The verification code; default: the page URL's `code` parameter.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the message.
 * @csspart link - The link onward: "Continue" once verified, "Go to sign in" after an error.
 */
export class AuthEmailVerificationElement extends CodeLinkElement {
  protected get heading(): string {
    return msg("Email verification");
  }
  protected get workingMessage(): string {
    return msg("Verifying your email…");
  }

  protected async perform(app: ClientApp, code: string): Promise<string> {
    await app.verifyEmail(code);
    this.emit("auth-email-verified");
    return msg("Your email has been verified.");
  }
}
