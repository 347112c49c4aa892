import type { Loadable, Project, SignInResult } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError, type ShownError } from "../base/errors.js";
import { field, focusError, formError, formValues, showPassword, submit } from "../base/forms.js";
import { carryReturnTarget } from "../base/navigation.js";
import { checkNewPassword, passwordRules, passwordRulesCss, rulesId, typedPasswords, type TypedPasswords } from "../base/password-rules.js";
import { projectGate } from "../base/project-gate.js";
import { oauthButtons } from "../base/provider-names.js";
import { msg } from "../base/i18n.js";
import { EmailVerificationStep } from "./sign-up-verification.js";

/**
 * Sign-up with email and password (when the project enables sign-up and passwords). The password's rules
 * show under its field from the start, each marked met as the person types. The verification mail links to
 * the app's email-verification page; with `verify-email`, the element then asks the person to check their
 * inbox (with Resend and "Wrong address?") and goes on once the address is verified. Projects without
 * passwords sign people up through the emailed code of `<auth-sign-in>`, which this element links to.
 *
 * @element auth-sign-up
 * @fires auth-signed-up - After the account is created and signed in (with `verify-email`: once its address is verified); detail `{ userId, isNewUser }`.
 * @attr no-redirect - Stay on the page after signing up instead of going to after-sign-up.
 * @attr verify-email - After signing up, show "Check your inbox" until the address is verified, then go on. For projects that require a verified email (the client cannot read that setting).
 * @attr resend-cooldown - With `verify-email`: seconds before the person can ask for another mail, shown as a countdown (default 60).
 * @attr autofocus - Focus the first field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the form.
 * @csspart input - Every text input.
 * @csspart submit - The submit button.
 * @csspart password-rules - The list of what the password must be, each rule marked met as the person types.
 * @csspart show-password - The "Show password" toggle.
 * @csspart button - The "Resend the email" button.
 * @csspart error - The form-level error.
 * @csspart label - Every input's label.
 * @csspart oauth-button - Each "Continue with …" button.
 * @csspart oauth-icon - Each provider's icon, in its button.
 * @csspart link - The "Sign in" link.
 */
export class AuthSignUpElement extends AuthElement {
  static override css = passwordRulesCss;
  static override properties = {
    noRedirect: { type: Boolean, attribute: "no-redirect" },
    verifyEmail: { type: Boolean, attribute: "verify-email" },
    resendCooldown: { attribute: "resend-cooldown" },
    busy: { state: true },
    error: { state: true },
    typed: { state: true },
    verification: { state: true },
    verified: { state: true },
  };

  declare noRedirect: boolean;
  declare verifyEmail: boolean;
  // Seconds: the attribute's text, or a number set as a property.
  declare resendCooldown: number | string;
  declare busy: boolean;
  declare error: ShownError | null;
  declare typed: TypedPasswords;
  /** With `verify-email`, once the account exists: the "Check your inbox" step. */
  declare verification: EmailVerificationStep | null;
  declare verified: boolean;
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.noRedirect = false;
    this.verifyEmail = false;
    this.resendCooldown = 60;
    this.busy = false;
    this.error = null;
    this.typed = ["", ""];
    this.verification = null;
    this.verified = false;
  }

  protected override render(): TemplateResult {
    if (this.verified) return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Email verified")}</h2><p role="status">${msg("Your email address is verified.")}</p></div>`;
    if (this.verification) return html`<div class="lk-card" part="card">${this.verification.render()}</div>`;
    return html`<div class="lk-card" part="card">${projectGate(this.project() as Loadable<Project> | undefined, (project) => this.renderReady(project))}</div>`;
  }

  private renderReady(project: Project): TemplateResult {
    const { signUpEnabled, credentialEnabled, magicLinkEnabled, oauthProviders } = project.config;
    const signIn = html`<div class="lk-footer"><span>${msg("Already have an account?")} <a part="link" href=${carryReturnTarget(this.app!.urls.signIn)}>${msg("Sign in")}</a></span></div>`;
    if (!signUpEnabled) return html`<h2 tabindex="-1">${msg("Create an account")}</h2><p>${msg("New accounts cannot be created here.")}</p>${signIn}`;
    // A provider account new to the project signs up: the same buttons as on the sign-in page.
    const providers = oauthProviders.length ? html`<div class="lk-stack">${oauthButtons(this.app!.baseUrl, oauthProviders, this.busy, this.oauth)}</div>` : nothing;
    if (!credentialEnabled) {
      const other = magicLinkEnabled || oauthProviders.length > 0;
      return html`<h2 tabindex="-1">${msg("Create an account")}</h2>${providers}
        ${magicLinkEnabled || !other ? html`<p>${other ? msg("Sign up from the sign-in page: a new email address gets an account when you sign in with it.") : msg("No sign-up method is enabled for this project.")}</p>` : nothing}${signIn}`;
    }
    return html`<h2 tabindex="-1">${msg("Create an account")}</h2>
      ${providers}${oauthProviders.length ? html`<div class="lk-or">${msg("or")}</div>` : nothing}
      <form @submit=${this.signUp} @input=${(event: Event) => (this.typed = typedPasswords(event))}>
        ${field({ uid: this.uid, name: "email", label: msg("Email"), type: "email", autocomplete: "email", error: this.error })}
        ${field({ uid: this.uid, name: "password", label: msg("Password"), type: "password", autocomplete: "new-password", error: this.error, describedBy: rulesId(this.uid) })}
        ${passwordRules(this.uid, this.typed)}
        ${field({ uid: this.uid, name: "password-repeat", label: msg("Repeat password"), type: "password", autocomplete: "new-password", error: this.error })}
        ${showPassword(`${this.uid}-password ${this.uid}-password-repeat`)} ${formError(this.error)} ${submit(msg("Create account"), msg("Creating account…"), this.busy)}
      </form>
      ${signIn}`;
  }

  private oauth = (provider: string): void => {
    this.busy = true;
    this.app!.signInWithOAuth(provider).catch((error: unknown) => {
      this.error = describeError(error);
      this.busy = false;
      focusError(this);
    });
  };

  private signUp = async (event: Event): Promise<void> => {
    const { email = "", password = "", "password-repeat": repeat = "" } = formValues(event);
    if (this.busy) return;
    this.error = checkNewPassword(password, repeat);
    if (this.error) return focusError(this);
    this.busy = true;
    try {
      const result = await this.app!.signUpWithCredential({ email, password, noRedirect: this.noRedirect || this.verifyEmail });
      if (this.verifyEmail) this.checkInbox(email, result);
      else this.emit("auth-signed-up", result);
    } catch (error) {
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  };

  private checkInbox(email: string, result: SignInResult): void {
    this.verification = new EmailVerificationStep(this, this.app!, {
      uid: this.uid,
      email,
      cooldownSeconds: Number(this.resendCooldown) || 60,
      focusStep: () => this.focusStep(),
      verified: () => {
        this.verification = null;
        this.verified = true;
        this.focusStep();
        this.emit("auth-signed-up", result);
        // Other elements on the page show the address as verified too.
        void this.app!.$user.refresh();
        if (!this.noRedirect) void this.app!.redirectAfterSignIn({ isNewUser: true });
      },
    });
    this.focusStep();
  }
}
