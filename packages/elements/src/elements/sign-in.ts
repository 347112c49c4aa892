import { KnownError, signInWithPasskey, type ClientApp, type CurrentUser, type Loadable, type Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError, type ShownError } from "../base/errors.js";
import { field, focusError, formError, formValues, showPassword, submit } from "../base/forms.js";
import { carryReturnTarget, pageParam } from "../base/navigation.js";
import { projectGate } from "../base/project-gate.js";
import { oauthButtons } from "../base/provider-names.js";
import { msg, str } from "../base/i18n.js";

/** SPEC.md §4: the MFA page reads the attempt code from session storage under this key. */
export const MFA_ATTEMPT_CODE_KEY = "stack_mfa_attempt_code";

type Step = { name: "methods"; mode: "password" | "email-code" } | { name: "code"; email: string; nonce: string };

/**
 * Sign-in form showing exactly the methods the project enables: email and password, an emailed
 * one-time code / magic link (with a code entry step), OAuth providers, and passkeys (a button, and the
 * browser's passkey suggestions on the email field). Links to sign-up and
 * forgot-password carry `after_auth_return_to`.
 *
 * Someone with two-factor authentication continues on the mfa page, which reads the attempt code from this
 * origin's session storage. With hosted pages (full bundle), that page is on another origin, which cannot
 * read it: the code is asked for here instead, by an `<auth-mfa>` in place of the form. So it is for an OAuth
 * sign-in or a magic link started here that comes back to this page.
 *
 * @element auth-sign-in
 * @fires auth-signed-in - After a successful sign-in; detail `{ userId, isNewUser }`.
 * @attr no-redirect - Stay on the page after signing in instead of going to after-sign-in.
 * @attr autofocus - Focus the first field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the form.
 * @csspart input - Every text input.
 * @csspart submit - The submit button.
 * @csspart show-password - The "Show password" toggle.
 * @csspart oauth-button - Each "Continue with …" button.
 * @csspart passkey-button - The "Sign in with a passkey" button (when the project enables passkeys).
 * @csspart error - The form-level error.
 * @csspart label - Every input's label.
 * @csspart oauth-icon - Each provider's icon, in its button.
 * @csspart link - The "Forgot password?" and "Sign up" links.
 * @csspart button - The "Sign out" button shown to someone already signed in.
 */
export class AuthSignInElement extends AuthElement {
  static override properties = {
    noRedirect: { type: Boolean, attribute: "no-redirect" },
    step: { state: true },
    busy: { state: true },
    error: { state: true },
    secondFactor: { state: true },
  };

  declare noRedirect: boolean;
  declare step: Step | undefined;
  declare busy: boolean;
  declare error: ShownError | null;
  /**
   * Shows `<auth-mfa>` in place of the form, for the sign-in waiting in session storage. Set by
   * `<auth-mfa>`'s module when a redirect to a hosted mfa page on another origin is replaced (MFA_REQUIRED_EVENT).
   * @internal
   */
  declare secondFactor?: boolean;
  private readonly project = this.watch((app) => app.$project);
  private readonly user = this.watch((app) => app.$user);

  constructor() {
    super();
    this.noRedirect = false;
    this.busy = false;
    this.error = null;
  }

  protected override render(): TemplateResult {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    // Someone already signed in sees who, with a way on and a way out, not a form that would sign in again.
    if (user?.status === "ready" && user.value && !this.busy) return html`<div class="lk-card" part="card">${this.renderSignedIn(user.value)}</div>`;
    if (this.secondFactor) return html`<auth-mfa autofocus ?no-redirect=${this.noRedirect}></auth-mfa>`;
    return html`<div class="lk-card" part="card">${projectGate(this.project() as Loadable<Project> | undefined, (project) => this.renderReady(project))}</div>`;
  }

  private renderSignedIn(user: CurrentUser): TemplateResult {
    const who = user.primaryEmail ?? user.displayName ?? "";
    return html`<h2 tabindex="-1">${msg("Sign in")}</h2>
      <p role="status">${msg(str`You are signed in as ${who}.`)}</p>
      <div class="lk-stack">
        <a class="lk-button lk-primary" part="submit" href=${continueTarget(this.app!.urls.afterSignIn)}>${msg("Continue")}</a>
        <button type="button" part="button" @click=${() => void this.app!.signOut({ redirectUrl: location.href })}>${msg("Sign out")}</button>
      </div>`;
  }

  private renderReady(project: Project): TemplateResult {
    const { credentialEnabled, magicLinkEnabled, oauthProviders, signUpEnabled, passkeyEnabled } = project.config;
    const step: Step = this.step ?? { name: "methods", mode: credentialEnabled ? "password" : "email-code" };
    if (step.name === "code") return this.renderCodeStep(step);

    const emailForms = credentialEnabled || magicLinkEnabled;
    return html`<h2 tabindex="-1">${msg("Sign in")}</h2>
      ${oauthProviders.length || passkeyEnabled
        ? html`<div class="lk-stack">${oauthButtons(this.app!.baseUrl, oauthProviders, this.busy, (id) => void this.oauth(id))}
            ${passkeyEnabled ? html`<button part="passkey-button" type="button" ?disabled=${this.busy} @click=${this.passkey}>${msg("Sign in with a passkey")}</button>` : nothing}</div>`
        : nothing}
      ${(oauthProviders.length || passkeyEnabled) && emailForms ? html`<div class="lk-or">${msg("or")}</div>` : nothing}
      ${step.mode === "password" && credentialEnabled ? this.renderPasswordForm() : nothing}
      ${step.mode === "email-code" && magicLinkEnabled ? this.renderEmailCodeForm() : nothing}
      ${!emailForms && !oauthProviders.length ? html`<p>${msg("No sign-in method is enabled for this project.")}</p>` : nothing}
      ${credentialEnabled && magicLinkEnabled
        ? html`<button class="lk-link" type="button" @click=${() => this.switchMode(step.mode === "password" ? "email-code" : "password")}>${step.mode === "password" ? msg("Email me a sign-in code instead") : msg("Sign in with a password instead")}</button>`
        : nothing}
      <div class="lk-footer">
        ${credentialEnabled && step.mode === "password" ? html`<a part="link" href=${carryReturnTarget(this.app!.urls.forgotPassword)}>${msg("Forgot password?")}</a>` : nothing}
        ${signUpEnabled ? html`<span>${msg("No account?")} <a part="link" href=${carryReturnTarget(this.app!.urls.signUp)}>${msg("Sign up")}</a></span>` : nothing}
      </div>`;
  }

  /** With passkeys on, the identifier field also offers the browser's saved passkeys (conditional UI). */
  private identifierAutocomplete(): string {
    const project = this.project() as Loadable<Project> | undefined;
    return project?.status === "ready" && project.value.config.passkeyEnabled ? "username webauthn" : "username";
  }

  private renderPasswordForm(): TemplateResult {
    return html`<form @submit=${this.signInWithPassword}>
      ${field({ uid: this.uid, name: "email", label: msg("Email"), type: "email", autocomplete: this.identifierAutocomplete(), error: this.error })}
      ${field({ uid: this.uid, name: "password", label: msg("Password"), type: "password", autocomplete: "current-password", error: this.error })}
      ${showPassword(`${this.uid}-password`)} ${formError(this.error)} ${submit(msg("Sign in"), msg("Signing in…"), this.busy)}
    </form>`;
  }

  private renderEmailCodeForm(): TemplateResult {
    return html`<form @submit=${this.sendCode}>
      ${field({ uid: this.uid, name: "email", label: msg("Email"), type: "email", autocomplete: this.identifierAutocomplete(), error: this.error })}
      ${formError(this.error)} ${submit(msg("Send sign-in code"), msg("Sending…"), this.busy)}
    </form>`;
  }

  private renderCodeStep(step: { email: string; nonce: string }): TemplateResult {
    return html`<h2 tabindex="-1">${msg("Check your email")}</h2>
      <p>${msg(str`We sent a sign-in link and a code to ${step.email}. Open the link, or enter the code here.`)}</p>
      <form @submit=${(event: Event) => this.signInWithCode(event, step.nonce)}>
        ${field({ uid: this.uid, name: "code", label: msg("Code"), autocomplete: "one-time-code", error: this.error, autofocus: true, minlength: 6, maxlength: 6 })}
        ${formError(this.error)} ${submit(msg("Sign in"), msg("Signing in…"), this.busy)}
      </form>
      <button class="lk-link" type="button" @click=${() => this.switchMode("email-code")}>${msg("Use a different email")}</button>`;
  }

  private switchMode(mode: "password" | "email-code"): void {
    this.step = { name: "methods", mode };
    this.error = null;
    this.focusStep();
  }

  private async run(action: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      await action();
    } catch (error) {
      if (error instanceof KnownError && error.code === "MULTI_FACTOR_AUTHENTICATION_REQUIRED") {
        sessionStorage.setItem(MFA_ATTEMPT_CODE_KEY, String(error.details?.attempt_code ?? ""));
        await this.app!.redirectTo("mfa");
        return;
      }
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  }

  private signInWithPassword = (event: Event): Promise<void> => {
    const { email = "", password = "" } = formValues(event);
    return this.run(async () => {
      const result = await this.app!.signInWithCredential({ email, password, noRedirect: this.noRedirect });
      this.emit("auth-signed-in", result);
    });
  };

  private sendCode = (event: Event): Promise<void> => {
    const { email = "" } = formValues(event);
    return this.run(async () => {
      const { nonce } = await this.app!.sendMagicLinkEmail(email);
      this.step = { name: "code", email, nonce };
      this.focusStep();
    });
  };

  private signInWithCode(event: Event, nonce: string): Promise<void> {
    const { code = "" } = formValues(event);
    return this.run(async () => {
      // Codes are mailed in capitals for legibility; the code itself is lower case.
      const result = await this.app!.signInWithCode(code.trim().toLowerCase() + nonce, { noRedirect: this.noRedirect });
      this.emit("auth-signed-in", result);
    });
  }

  private passkey = (): Promise<void> =>
    this.run(async () => {
      const result = await signInWithPasskey(this.app!, { noRedirect: this.noRedirect });
      this.emit("auth-signed-in", result);
    });

  /**
   * Passkey autofill: once the form with the identifier field is shown, a conditional request waits for the
   * person to pick a passkey from the field's suggestions. Any other passkey call cancels it (one abort
   * controller), and a cancelled or failed autofill is silent: the person can still type.
   */
  private autofillStarted = false;
  protected override updated(): void {
    const project = this.project() as Loadable<Project> | undefined;
    if (this.autofillStarted || project?.status !== "ready" || !project.value.config.passkeyEnabled || !this.querySelector("input[autocomplete~=webauthn]")) return;
    this.autofillStarted = true;
    void startPasskeyAutofill(this.app!, this.noRedirect).then((result) => result && this.emit("auth-signed-in", result));
  }

  private oauth(provider: string): Promise<void> {
    return this.run(() => this.app!.signInWithOAuth(provider));
  }
}

async function startPasskeyAutofill(app: ClientApp, noRedirect: boolean) {
  const available = await globalThis.PublicKeyCredential?.isConditionalMediationAvailable?.().catch(() => false);
  if (!available) return null;
  return signInWithPasskey(app, { autofill: true, noRedirect }).catch(() => null);
}

/** Where "Continue" goes: the page's `after_auth_return_to` when it is on this origin, else after-sign-in. */
function continueTarget(afterSignIn: string): string {
  const target = pageParam("after_auth_return_to");
  if (!target) return afterSignIn;
  try {
    return new URL(target, location.href).origin === location.origin ? target : afterSignIn;
  } catch {
    return afterSignIn;
  }
}
