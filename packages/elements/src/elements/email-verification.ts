import type { ClientApp } from "@latchkey/core";
import { CodeLinkElement } from "../base/code-link-element.js";

/**
 * The page an email-verification mail links to: verifies the address with the link's code.
 *
 * @element auth-email-verification
 * @fires auth-email-verified - After the address was verified.
 * @attr code - The verification code; default: the page URL's `code` parameter.
 * @attr theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the message.
 */
export class AuthEmailVerificationElement extends CodeLinkElement {
  protected readonly heading = "Email verification";
  protected readonly workingMessage = "Verifying your email…";

  protected async perform(app: ClientApp, code: string): Promise<string> {
    await app.verifyEmail(code);
    this.emit("auth-email-verified");
    return "Your email has been verified.";
  }
}
