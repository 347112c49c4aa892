import { MFA_REQUIRED_EVENT } from "@latchkey/protocol/hosted-pages";
import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError, type ShownError } from "../base/errors.js";
import { field, focusError, formError, formValues, submit } from "../base/forms.js";
import { msg } from "../base/i18n.js";
import { MFA_ATTEMPT_CODE_KEY, type AuthSignInElement } from "./sign-in.js";

/**
 * The second step of signing in for a user with two-factor authentication (the mfa handler page): the code
 * of the authenticator app, with the attempt code that `<auth-sign-in>` kept in session storage. Also shown
 * by `<auth-sign-in>` in place of its form when the mfa page is on another origin (hosted pages), which
 * cannot read that storage.
 *
 * @element auth-mfa
 * @fires auth-signed-in - After signing in; detail `{ userId, isNewUser }`.
 * @attr no-redirect - Stay on the page after signing in.
 * @attr autofocus - Focus the first field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the form.
 * @csspart input - The code input.
 * @csspart submit - The submit button.
 * @csspart label - The code input's label.
 * @csspart link - The "Go to sign in" link when no sign-in is pending.
 */
export class AuthMfaElement extends AuthElement {
  static override properties = { noRedirect: { type: Boolean, attribute: "no-redirect" }, busy: { state: true }, error: { state: true } };

  declare noRedirect: boolean;
  declare busy: boolean;
  declare error: ShownError | null;

  constructor() {
    super();
    this.noRedirect = false;
    this.busy = false;
    this.error = null;
  }

  protected override render(): TemplateResult {
    const attemptCode = sessionStorage.getItem(MFA_ATTEMPT_CODE_KEY);
    if (!attemptCode) {
      return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Two-factor authentication")}</h2>
        <p class="lk-alert" role="alert">${msg("This sign-in has expired. Please sign in again.")}</p>
        <div class="lk-footer"><a part="link" href=${this.app?.urls.signIn ?? "/"}>${msg("Go to sign in")}</a></div></div>`;
    }
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Two-factor authentication")}</h2>
      <p>${msg("Enter the 6-digit code from your authenticator app.")}</p>
      <form @submit=${(event: Event) => this.verify(event, attemptCode)}>
        ${field({ uid: this.uid, name: "code", label: msg("Code"), autocomplete: "one-time-code", inputmode: "numeric", minlength: 6, maxlength: 6, autofocus: true, error: this.error })}
        ${formError(this.error)} ${submit(msg("Verify"), msg("Verifying…"), this.busy)}
      </form></div>`;
  }

  private async verify(event: Event, attemptCode: string): Promise<void> {
    const { code = "" } = formValues(event);
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    try {
      const result = await this.app.signInWithMfa({ totp: code.replace(/\s/g, ""), attemptCode, noRedirect: this.noRedirect });
      sessionStorage.removeItem(MFA_ATTEMPT_CODE_KEY);
      this.emit("auth-signed-in", result);
    } catch (error) {
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  }
}

// An app with hosted pages does not send a sign-in waiting for its second factor to the hosted mfa page, on
// another origin that cannot read the attempt code (core's flows/hosted-pages.ts): the page's sign-in form
// shows this element instead. Here rather than in sign-in.ts: the sign-in-only bundle has neither.
if (typeof window !== "undefined") {
  addEventListener(MFA_REQUIRED_EVENT, (event) => {
    for (const signIn of document.querySelectorAll<AuthSignInElement>("auth-sign-in")) {
      signIn.secondFactor = true;
      event.preventDefault();
    }
  });
}
