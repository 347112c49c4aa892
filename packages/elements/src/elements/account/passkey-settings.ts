import { registerPasskey, type CurrentUser, type Loadable, type Project } from "@latchkey/core";
import type { PropertyValues } from "lit";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { formError } from "../../base/forms.js";
import { msg } from "../../base/i18n.js";
import { accountCss } from "./account-common.js";
import { confirmAction } from "./confirm-dialog.js";
import { reasonNote, WaysIn, type Change } from "./ways-in.js";

/**
 * Passkeys of the signed-in user (when the project enables them): add one with this device or a security
 * key, and turn passkey sign-in off after confirming — held back, with the reason shown, while passkeys are the
 * user's only way to sign in (see ways-in.ts). (The protocol keeps one switch per user, not a list of passkeys.)
 *
 * @element auth-passkey-settings
 * @fires auth-passkey-added - After a passkey was registered.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart error - The form-level error.
 * @csspart dialog - The confirmation dialog for turning passkey sign-in off.
 * @csspart reason - Why passkey sign-in cannot be turned off.
 */
export class AuthPasskeySettingsElement extends AuthElement {
  static override css = accountCss;
  static override properties = { busy: { state: true }, error: { state: true }, added: { state: true } };

  declare busy: boolean;
  declare error: ShownError | null;
  declare added: boolean;
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);
  private readonly waysIn = new WaysIn(this);

  constructor() {
    super();
    this.busy = false;
    this.error = null;
    this.added = false;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.waysIn.track(this.app, this.user(), this.project());
  }

  protected override render(): TemplateResult | typeof nothing {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    const project = this.project() as Loadable<Project> | undefined;
    if (user?.status !== "ready" || !user.value || project?.status !== "ready") return html`<p class="lk-note" role="status">${msg("Loading…")}</p>`;
    if (!project.value.config.passkeyEnabled) return nothing;
    const on = user.value.passkeyAuthEnabled;
    const reason = on && this.waysIn.blocks(passkeysOff) ? onlyPasskeyReason() : null;
    const reasonId = `${this.uid}-reason`;
    return html`<div class="lk-stack">
      <p>${on ? msg("You can sign in with a passkey.") : msg("Sign in with your fingerprint, face or screen lock instead of a password.")}</p>
      ${this.added ? html`<p role="status">${msg("Passkey added.")}</p>` : nothing}
      ${formError(this.error)}
      <button type="button" ?disabled=${this.busy} aria-busy=${this.busy ? "true" : "false"} @click=${this.add}>${msg("Add a passkey")}</button>
      ${on
        ? html`${reasonNote(reasonId, reason)}
            <button type="button" ?disabled=${this.busy || !!reason} aria-describedby=${reason ? reasonId : nothing} title=${reason ?? nothing} @click=${this.turnOff}>
              ${msg("Turn off passkey sign-in")}
            </button>`
        : nothing}
    </div>`;
  }

  private add = async (): Promise<void> => {
    await this.act(async () => {
      await registerPasskey(this.app!);
      this.added = true;
      this.emit("auth-passkey-added");
    });
  };

  private turnOff = async (): Promise<void> => {
    const confirmed = await confirmAction(this, {
      title: msg("Turn off passkey sign-in?"),
      message: msg("You will no longer be able to sign in with a passkey."),
      confirmLabel: msg("Turn off"),
    });
    if (!confirmed) return;
    await this.act(async () => {
      const app = this.app!;
      // Checked again on what the server says now: another tab may have removed the other way in.
      if (await this.waysIn.blocksNow(app, passkeysOff)) {
        await app.$user.refresh();
        throw new HeldBack(onlyPasskeyReason());
      }
      await app.updateUser({ passkeyAuthEnabled: false });
    });
  };

  private async act(action: () => Promise<void>): Promise<void> {
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    this.added = false;
    try {
      await action();
    } catch (error) {
      this.error = error instanceof HeldBack ? { field: "form", message: error.message } : describeError(error);
    } finally {
      this.busy = false;
    }
  }
}

const passkeysOff: Change = (facts) => ({ user: { ...facts.user, passkeyAuthEnabled: false } });

const onlyPasskeyReason = (): string => msg("Your passkey is your only way to sign in. To turn passkey sign-in off, first add another way to sign in.");

/** A change refused here, before the server was asked: its message is the reason. */
class HeldBack extends Error {}
