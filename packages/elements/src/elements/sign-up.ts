import type { Loadable, Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError, type ShownError } from "../base/errors.js";
import { field, formError, formValues, submit } from "../base/forms.js";
import { carryReturnTarget } from "../base/navigation.js";
import { checkNewPassword } from "../base/password-rules.js";
import { projectGate } from "../base/project-gate.js";
import { oauthButtons } from "../base/provider-names.js";
import { msg } from "../base/i18n.js";

/**
 * Sign-up with email and password (when the project enables sign-up and passwords). The verification mail
 * links to the app's email-verification page. Projects without passwords sign people up through the
 * emailed code of `<auth-sign-in>`, which this element links to.
 *
 * @element auth-sign-up
 * @fires auth-signed-up - After the account is created and signed in; detail `{ userId, isNewUser }`.
 * @attr no-redirect - Stay on the page after signing up instead of going to after-sign-up.
 * @attr theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the form.
 * @csspart input - Every text input.
 * @csspart submit - The submit button.
 * @csspart error - The form-level error.
 */
export class AuthSignUpElement extends AuthElement {
  static override properties = {
    noRedirect: { type: Boolean, attribute: "no-redirect" },
    busy: { state: true },
    error: { state: true },
  };

  declare noRedirect: boolean;
  declare busy: boolean;
  declare error: ShownError | null;
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.noRedirect = false;
    this.busy = false;
    this.error = null;
  }

  protected override render(): TemplateResult {
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
      <form @submit=${this.signUp}>
        ${field({ uid: this.uid, name: "email", label: msg("Email"), type: "email", autocomplete: "email", error: this.error })}
        ${field({ uid: this.uid, name: "password", label: msg("Password"), type: "password", autocomplete: "new-password", error: this.error })}
        ${field({ uid: this.uid, name: "password-repeat", label: msg("Repeat password"), type: "password", autocomplete: "new-password", error: this.error })}
        ${formError(this.error)} ${submit(msg("Create account"), msg("Creating account…"), this.busy)}
      </form>
      ${signIn}`;
  }

  private oauth = (provider: string): void => {
    this.busy = true;
    this.app!.signInWithOAuth(provider).catch((error: unknown) => {
      this.error = describeError(error);
      this.busy = false;
    });
  };

  private signUp = async (event: Event): Promise<void> => {
    const { email = "", password = "", "password-repeat": repeat = "" } = formValues(event);
    if (this.busy) return;
    this.error = checkNewPassword(password, repeat);
    if (this.error) return;
    this.busy = true;
    try {
      const result = await this.app!.signUpWithCredential({ email, password, noRedirect: this.noRedirect });
      this.emit("auth-signed-up", result);
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.busy = false;
    }
  };
}
