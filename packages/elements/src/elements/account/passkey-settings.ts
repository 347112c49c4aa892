import { registerPasskey, type CurrentUser, type Loadable, type Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { formError } from "../../base/forms.js";
import { msg } from "../../base/i18n.js";

/**
 * Passkeys of the signed-in user (when the project enables them): add one with this device or a security
 * key, and turn passkey sign-in off. (The protocol keeps one switch per user, not a list of passkeys.)
 *
 * @element auth-passkey-settings
 * @fires auth-passkey-added - After a passkey was registered.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart error - The form-level error.
 */
export class AuthPasskeySettingsElement extends AuthElement {
  static override properties = { busy: { state: true }, error: { state: true }, added: { state: true } };

  declare busy: boolean;
  declare error: ShownError | null;
  declare added: boolean;
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.busy = false;
    this.error = null;
    this.added = false;
  }

  protected override render(): TemplateResult | typeof nothing {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    const project = this.project() as Loadable<Project> | undefined;
    if (user?.status !== "ready" || !user.value || project?.status !== "ready") return html`<p class="lk-note" role="status">${msg("Loading…")}</p>`;
    if (!project.value.config.passkeyEnabled) return nothing;
    const on = user.value.passkeyAuthEnabled;
    return html`<div class="lk-stack">
      <p>${on ? msg("You can sign in with a passkey.") : msg("Sign in with your fingerprint, face or screen lock instead of a password.")}</p>
      ${this.added ? html`<p role="status">${msg("Passkey added.")}</p>` : nothing}
      ${formError(this.error)}
      <button type="button" ?disabled=${this.busy} aria-busy=${this.busy ? "true" : "false"} @click=${this.add}>${msg("Add a passkey")}</button>
      ${on ? html`<button type="button" ?disabled=${this.busy} @click=${this.turnOff}>${msg("Turn off passkey sign-in")}</button>` : nothing}
    </div>`;
  }

  private add = async (): Promise<void> => {
    await this.act(async () => {
      await registerPasskey(this.app!);
      this.added = true;
      this.emit("auth-passkey-added");
    });
  };

  private turnOff = (): Promise<void> => this.act(async () => void (await this.app!.updateUser({ passkeyAuthEnabled: false })));

  private async act(action: () => Promise<void>): Promise<void> {
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    this.added = false;
    try {
      await action();
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.busy = false;
    }
  }
}
