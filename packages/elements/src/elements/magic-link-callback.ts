import type { ClientApp } from "@latchkey/core";
import { CodeLinkElement } from "../base/code-link-element.js";
import { msg } from "../base/i18n.js";

/**
 * The page a magic-link mail links to: signs in with the link's code, then goes to after-sign-in (new users:
 * after-sign-up), or to `after_auth_return_to`.
 *
 * @element auth-magic-link-callback
 * @fires auth-signed-in - After signing in; detail `{ userId, isNewUser }`.
 * @attr code - The sign-in code; default: the page URL's `code` parameter.
 * @attr no-redirect - Stay on the page after signing in.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the message.
 * @csspart link - The link onward: "Continue" once signed in, "Go to sign in" after an error.
 */
export class AuthMagicLinkCallbackElement extends CodeLinkElement {
  static override properties = { ...CodeLinkElement.properties, noRedirect: { type: Boolean, attribute: "no-redirect" } };
  declare noRedirect: boolean;
  protected get heading(): string {
    return msg("Signing in");
  }
  protected get workingMessage(): string {
    return msg("Signing you in…");
  }

  protected async perform(app: ClientApp, code: string): Promise<string> {
    const result = await app.signInWithCode(code, { noRedirect: this.noRedirect ?? false });
    this.emit("auth-signed-in", result);
    return msg("You are signed in.");
  }
}
