import type { ClientApp } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError, type ShownError } from "../base/errors.js";
import { field, focusError, formError, formValues, showPassword, submit } from "../base/forms.js";
import { pageParam } from "../base/navigation.js";
import { checkNewPassword, passwordRules, passwordRulesCss, rulesId, typedPasswords, type TypedPasswords } from "../base/password-rules.js";
import { msg } from "../base/i18n.js";

/**
 * The page a password-reset mail links to: checks the link's code first (so an expired or used link says so
 * before anyone types), then sets the new password.
 *
 * @element auth-password-reset
 * @fires auth-password-reset - After the password was changed.
 * @attr code - The reset code; default: the page URL's `code` parameter.
 * @attr autofocus - Focus the new-password field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the form.
 * @csspart input - The password inputs.
 * @csspart submit - The submit button.
 * @csspart password-rules - The list of what the new password must be, each rule marked met as the person types.
 * @csspart show-password - The "Show password" toggle.
 * @csspart label - The password inputs' labels.
 * @csspart link - The link onward: "Sign in" once reset, "Ask for a new link" after an error.
 */
export class AuthPasswordResetElement extends AuthElement {
  static override css = passwordRulesCss;
  static override properties = { code: { type: String }, state: { state: true }, busy: { state: true }, error: { state: true }, typed: { state: true } };

  declare code: string | null;
  declare state: "checking" | "ready" | "invalid" | "done";
  declare busy: boolean;
  declare error: ShownError | null;
  declare typed: TypedPasswords;

  constructor() {
    super();
    this.code = null;
    this.state = "checking";
    this.busy = false;
    this.error = null;
    this.typed = ["", ""];
  }

  protected override appAttached(app: ClientApp): void {
    const code = this.resetCode();
    if (!code) {
      this.state = "invalid";
      this.error = { field: "form", message: msg("This link has no reset code. Ask for a new link.") };
      return;
    }
    app.verifyPasswordResetCode(code).then(
      () => (this.state = "ready"),
      (error: unknown) => {
        this.state = "invalid";
        this.error = describeError(error);
      },
    );
  }

  private resetCode(): string | null {
    return this.code ?? pageParam("code");
  }

  protected override render(): TemplateResult {
    const signIn = this.app?.urls.signIn ?? "/";
    const forgot = this.app?.urls.forgotPassword ?? "/";
    let body: TemplateResult;
    switch (this.state) {
      case "checking":
        body = html`<p class="lk-note" role="status">${msg("Checking the link…")}</p>`;
        break;
      case "invalid":
        body = html`<p class="lk-alert" role="alert">${this.error?.message}</p><div class="lk-footer"><a part="link" href=${forgot}>${msg("Ask for a new link")}</a></div>`;
        break;
      case "done":
        body = html`<p role="status">${msg("Your password has been reset. You can now sign in with it.")}</p><div class="lk-footer"><a part="link" href=${signIn}>${msg("Sign in")}</a></div>`;
        break;
      default:
        body = html`<form @submit=${this.reset} @input=${(event: Event) => (this.typed = typedPasswords(event))}>
          ${field({ uid: this.uid, name: "password", label: msg("New password"), type: "password", autocomplete: "new-password", error: this.error, describedBy: rulesId(this.uid) })}
          ${passwordRules(this.uid, this.typed)}
          ${field({ uid: this.uid, name: "password-repeat", label: msg("Repeat new password"), type: "password", autocomplete: "new-password", error: this.error })}
          ${showPassword(`${this.uid}-password ${this.uid}-password-repeat`)}
          ${this.error?.field === "code" ? html`<p class="lk-alert" part="error" role="alert" tabindex="-1">${this.error.message}</p>` : nothing}
          ${formError(this.error)} ${submit(msg("Reset password"), msg("Resetting…"), this.busy)}
        </form>`;
    }
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Reset your password")}</h2>${body}</div>`;
  }

  private reset = async (event: Event): Promise<void> => {
    const { password = "", "password-repeat": repeat = "" } = formValues(event);
    if (this.busy || !this.app) return;
    this.error = checkNewPassword(password, repeat);
    if (this.error) return focusError(this);
    this.busy = true;
    try {
      await this.app.resetPassword({ code: this.resetCode() ?? "", password });
      this.state = "done";
      this.emit("auth-password-reset");
      this.focusStep();
    } catch (error) {
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  };
}
