import type { CurrentUser, Loadable } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { field, focusError, formError, formValues, showPassword, submit } from "../../base/forms.js";
import { msg } from "../../base/i18n.js";
import { checkNewPassword, passwordRules, passwordRulesCss, rulesId, typedPasswords, type TypedPasswords } from "../../base/password-rules.js";
import { accountCss, signedInGate } from "./account-common.js";

/**
 * Changes the signed-in user's password (current, new, repeat), or sets one when the account has none (it
 * was made with a magic link or OAuth). A hidden username field carrying the email makes password managers
 * offer to update the saved login for that account.
 *
 * @element auth-password-settings
 * @fires auth-password-changed - After the password was changed or set; `detail` is `{ wasSet }` (true when the account had none).
 * @attr autofocus - Focus the first password field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart input - The password inputs.
 * @csspart submit - The submit button.
 * @csspart password-rules - The list of what the new password must be, each rule marked met as the person types.
 * @csspart show-password - The "Show password" toggle.
 * @csspart label - The password inputs' labels.
 * @csspart error - The form-level error.
 */
export class AuthPasswordSettingsElement extends AuthElement {
  static override css = accountCss + passwordRulesCss;
  static override properties = { busy: { state: true }, error: { state: true }, status: { state: true }, typed: { state: true } };

  protected declare busy: boolean;
  protected declare error: ShownError | null;
  protected declare status: string;
  protected declare typed: TypedPasswords;
  private readonly user = this.watch((app) => app.$user);

  constructor() {
    super();
    this.busy = false;
    this.error = null;
    this.status = "";
    this.typed = ["", ""];
  }

  protected override render(): TemplateResult {
    return html`<div class="lk-section lk-stack" part="base">${signedInGate(this.user() as Loadable<CurrentUser | null> | undefined, (user) => this.form(user))}</div>`;
  }

  private form(user: CurrentUser): TemplateResult {
    const change = user.hasPassword;
    return html`
      ${change ? nothing : html`<p class="lk-note">${msg("Your account has no password yet. Set one to sign in with your email and a password.")}</p>`}
      <form @submit=${this.save} @input=${(event: Event) => (this.typed = typedPasswords(event))}>
        <input type="email" name="username" autocomplete="username" .value=${user.primaryEmail ?? ""} hidden readonly tabindex="-1" />
        ${change
          ? html`${field({ uid: this.uid, name: "current-password", label: msg("Current password"), type: "password", autocomplete: "current-password" })}`
          : nothing}
        ${field({ uid: this.uid, name: "password", label: msg("New password"), type: "password", autocomplete: "new-password", error: this.error, describedBy: rulesId(this.uid) })}
        ${passwordRules(this.uid, this.typed)}
        ${field({ uid: this.uid, name: "password-repeat", label: msg("Repeat new password"), type: "password", autocomplete: "new-password", error: this.error })}
        ${showPassword(`${change ? `${this.uid}-current-password ` : ""}${this.uid}-password ${this.uid}-password-repeat`)}
        ${formError(this.error)}
        ${change ? submit(msg("Change password"), msg("Changing…"), this.busy) : submit(msg("Set password"), msg("Saving…"), this.busy)}
      </form>
      <p class="lk-note" role="status">${this.status}</p>`;
  }

  private save = async (event: Event): Promise<void> => {
    const form = event.target as HTMLFormElement;
    const values = formValues(event);
    const state = this.user() as Loadable<CurrentUser | null> | undefined;
    const user = state?.status === "ready" ? state.value : null;
    if (this.busy || !this.app || !user) return;
    this.status = "";
    this.error = checkNewPassword(values.password ?? "", values["password-repeat"] ?? "");
    if (this.error) return focusError(this);
    this.busy = true;
    const wasSet = !user.hasPassword;
    try {
      if (wasSet) await this.app.setPassword({ password: values.password ?? "" });
      else await this.app.updatePassword({ oldPassword: values["current-password"] ?? "", newPassword: values.password ?? "" });
      form.reset();
      this.typed = ["", ""];
      this.status = wasSet ? msg("Your password has been set.") : msg("Your password has been changed.");
      this.emit("auth-password-changed", { wasSet });
    } catch (error) {
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  };
}
