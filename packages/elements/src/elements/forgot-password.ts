import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError, type ShownError } from "../base/errors.js";
import { field, focusError, formError, formValues, submit } from "../base/forms.js";
import { carryReturnTarget } from "../base/navigation.js";
import { msg, str } from "../base/i18n.js";

/**
 * Asks for an email address and mails a password-reset link to it. The confirmation reads the same whether
 * or not the address has an account, so the page cannot be used to find out who has one.
 *
 * @element auth-forgot-password
 * @fires auth-reset-email-sent - After the request was accepted; detail `{ email }`.
 * @attr autofocus - Focus the first field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the form.
 * @csspart input - The email input.
 * @csspart submit - The submit button.
 * @csspart label - The email input's label.
 * @csspart error - The form-level error.
 * @csspart link - The "Back to sign in" link.
 */
export class AuthForgotPasswordElement extends AuthElement {
  static override properties = { sentTo: { state: true }, busy: { state: true }, error: { state: true } };

  declare sentTo: string | null;
  declare busy: boolean;
  declare error: ShownError | null;

  constructor() {
    super();
    this.sentTo = null;
    this.busy = false;
    this.error = null;
  }

  protected override render(): TemplateResult {
    const back = html`<div class="lk-footer"><a part="link" href=${carryReturnTarget(this.app?.urls.signIn ?? "/")}>${msg("Back to sign in")}</a></div>`;
    if (this.sentTo !== null) {
      return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Check your email")}</h2>
        <p role="status">${msg(str`If an account exists for ${this.sentTo}, we sent it a link to reset the password.`)}</p>${back}</div>`;
    }
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Reset your password")}</h2>
      <form @submit=${this.send}>
        ${field({ uid: this.uid, name: "email", label: msg("Email"), type: "email", autocomplete: "username", error: this.error })}
        ${formError(this.error)} ${submit(msg("Send reset link"), msg("Sending…"), this.busy)}
      </form>${back}</div>`;
  }

  private send = async (event: Event): Promise<void> => {
    const { email = "" } = formValues(event);
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    try {
      await this.app.sendForgotPasswordEmail(email);
      this.sentTo = email;
      this.emit("auth-reset-email-sent", { email });
      this.focusStep();
    } catch (error) {
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  };
}
