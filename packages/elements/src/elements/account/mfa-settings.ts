import type { CurrentUser, Loadable, Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { unsafeSVG } from "lit-html/directives/unsafe-svg.js";
import { AuthElement } from "../../base/auth-element.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { field, formError, formValues, submit } from "../../base/forms.js";
import { msg } from "../../base/i18n.js";
import { loadQrCode } from "../../base/qr-code.js";
import { accountCss } from "./account-common.js";
import { confirmAction } from "./confirm-dialog.js";
import { base32, base64, newTotpSecret, otpauthUri, totpMatches } from "../../base/totp.js";

/**
 * Two-factor authentication (TOTP) for the signed-in user: turning it on shows a QR code and the secret for
 * an authenticator app and asks for one of its codes before anything is saved; turning it off asks to
 * confirm.
 *
 * @element auth-mfa-settings
 * @fires auth-mfa-changed - After two-factor sign-in was turned on or off; detail `{ enabled }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart qr - The QR code.
 * @csspart label - The code input's label.
 * @csspart input - The code input.
 * @csspart submit - The "Turn on" button.
 * @csspart error - The form-level error.
 * @csspart dialog - The confirmation dialog for turning two-factor authentication off.
 */
export class AuthMfaSettingsElement extends AuthElement {
  static override properties = { secret: { state: true }, busy: { state: true }, error: { state: true } };
  // The account rules style the confirmation dialog.
  static override css = `${accountCss}
:where(.lk-qr svg){width:12rem;height:12rem;background:#fff;padding:.5rem;border-radius:var(--lk-r)}
:where(.lk-secret){font-family:ui-monospace,monospace;letter-spacing:.1em;overflow-wrap:anywhere}`;

  declare secret: Uint8Array<ArrayBuffer> | null;
  declare busy: boolean;
  declare error: ShownError | null;
  // The QR-code library, loaded on the first "Turn on" (base/qr-code.ts); without it, the key is still shown.
  private renderQr: ((text: string) => string) | null = null;
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.secret = null;
    this.busy = false;
    this.error = null;
  }

  protected override render(): TemplateResult {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    if (user?.status !== "ready" || !user.value) return html`<p class="lk-note" role="status">${msg("Loading…")}</p>`;
    if (user.value.isMultiFactorRequired) {
      return html`<div class="lk-stack"><p>${msg("Two-factor authentication is on: signing in asks for a code from your authenticator app.")}</p>
        ${formError(this.error)}
        <button type="button" ?disabled=${this.busy} aria-busy=${this.busy ? "true" : "false"} @click=${this.disable}>${msg("Turn off two-factor authentication")}</button></div>`;
    }
    if (!this.secret) {
      return html`<div class="lk-stack"><p>${msg("Protect your account with a code from an authenticator app at each sign-in.")}</p>
        <button type="button" ?disabled=${this.busy} aria-busy=${this.busy ? "true" : "false"} @click=${this.start}>${msg("Turn on two-factor authentication")}</button></div>`;
    }
    const project = this.project() as Loadable<Project> | undefined;
    const issuer = project?.status === "ready" ? project.value.displayName : location.hostname;
    const uri = otpauthUri(this.secret, user.value.primaryEmail ?? user.value.id, issuer);
    return html`<div class="lk-stack">
      <p>${msg("Scan this QR code with your authenticator app, or enter the key by hand, then type the code it shows.")}</p>
      ${this.renderQr ? html`<div class="lk-qr" part="qr" role="img" aria-label=${msg("QR code for your authenticator app")}>${unsafeSVG(this.renderQr(uri))}</div>` : nothing}
      <p>${msg("Key:")} <code class="lk-secret">${base32(this.secret).replace(/(.{4})/g, "$1 ").trim()}</code></p>
      <form @submit=${this.confirm}>
        ${field({ uid: this.uid, name: "code", label: msg("Code"), autocomplete: "one-time-code", inputmode: "numeric", minlength: 6, maxlength: 6, autofocus: true, error: this.error })}
        ${formError(this.error)} ${submit(msg("Turn on"), msg("Turning on…"), this.busy)}
      </form>
      <button type="button" @click=${() => ((this.secret = null), (this.error = null))}>${msg("Cancel")}</button>
    </div>`;
  }

  private start = async (): Promise<void> => {
    if (this.busy) return;
    this.busy = true;
    // The code appears with its key, not a moment after; if the library cannot load, the key alone still works.
    this.renderQr ??= await loadQrCode().then(
      (library) => library.renderSVG,
      () => null,
    );
    this.busy = false;
    this.secret = newTotpSecret();
    this.error = null;
    this.focusStep();
  };

  private confirm = async (event: Event): Promise<void> => {
    const { code = "" } = formValues(event);
    const secret = this.secret;
    if (this.busy || !secret || !this.app) return;
    if (!(await totpMatches(secret, code.replace(/\s/g, "")))) {
      this.error = { field: "code", message: msg("The code is invalid. Please try again.") };
      return;
    }
    await this.save(base64(secret), true);
  };

  private disable = async (): Promise<void> => {
    if (this.busy) return;
    const confirmed = await confirmAction(this, {
      title: msg("Turn off two-factor authentication?"),
      message: msg("Signing in will no longer ask for a code from your authenticator app."),
      confirmLabel: msg("Turn off"),
    });
    if (confirmed) await this.save(null, false);
  };

  private async save(secret: string | null, enabled: boolean): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await this.app!.updateUser({ totpSecretBase64: secret });
      this.secret = null;
      this.emit("auth-mfa-changed", { enabled });
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.busy = false;
    }
  }
}
