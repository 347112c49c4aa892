import type { CurrentUser, Loadable } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { filePicker, filePickerCss } from "../../base/file-picker.js";
import { focusError, formError, formValues, submit } from "../../base/forms.js";
import { msg } from "../../base/i18n.js";
import { accountCss, signedInGate } from "./account-common.js";
import { avatarDataUrl, AvatarTooLargeError } from "./avatar-image.js";
import { confirmAction } from "./confirm-dialog.js";

/**
 * The signed-in user's display name and avatar. A picture is resized in the browser (at most 256×256) and
 * sent as a data URL within the server's 1,000,000 characters; the server stores it and serves it at a URL of its own.
 * Removing the avatar asks first.
 *
 * @element auth-profile-settings
 * @fires auth-profile-updated - After the name or avatar was saved; `detail` is `{ displayName, profileImageUrl }`.
 * @attr autofocus - Focus the display name field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart avatar - The current avatar.
 * @csspart input - The display name input.
 * @csspart file-button - The "Upload a picture" button (a label around the visually hidden file input).
 * @csspart submit - The save button.
 * @csspart label - The labels of the display name and picture inputs.
 * @csspart error - The form-level error.
 * @csspart dialog - The confirmation dialog for removing the avatar.
 */
export class AuthProfileSettingsElement extends AuthElement {
  static override css = `${accountCss}${filePickerCss}
:where(.lk-profile-avatar){width:4rem;height:4rem;border-radius:50%;object-fit:cover;background:var(--lk-subtle)}
:where(.lk-avatar-row){display:flex;flex-wrap:wrap;align-items:center;gap:var(--lk-s)}
`;
  static override properties = { busy: { state: true }, avatarBusy: { state: true }, error: { state: true }, avatarError: { state: true }, status: { state: true } };

  protected declare busy: boolean;
  protected declare avatarBusy: boolean;
  protected declare error: ShownError | null;
  protected declare avatarError: string | null;
  protected declare status: string;
  private readonly user = this.watch((app) => app.$user);

  constructor() {
    super();
    this.busy = false;
    this.avatarBusy = false;
    this.error = null;
    this.avatarError = null;
    this.status = "";
  }

  protected override render(): TemplateResult {
    return html`<div class="lk-section lk-stack" part="base">${signedInGate(this.user() as Loadable<CurrentUser | null> | undefined, (user) => this.profile(user))}</div>`;
  }

  private profile(user: CurrentUser): TemplateResult {
    const nameId = `${this.uid}-display-name`;
    const fileId = `${this.uid}-avatar`;
    const nameError = this.error && this.error.field !== "form" ? this.error.message : null;
    return html`
      <form @submit=${this.saveName}>
        <label part="label" for=${nameId}>${msg("Display name")}
          <input part="input" id=${nameId} name="display-name" autocomplete="name" maxlength="200" .value=${user.displayName ?? ""}
            aria-invalid=${nameError ? "true" : "false"} aria-describedby=${nameError ? `${nameId}-error` : nothing} /></label>
        ${nameError ? html`<p class="lk-error" id=${`${nameId}-error`} role="alert">${nameError}</p>` : nothing}
        ${formError(this.error)} ${submit(msg("Save"), msg("Saving…"), this.busy)}
      </form>
      <div class="lk-avatar-row">
        ${user.profileImageUrl
          ? html`<img class="lk-profile-avatar" part="avatar" src=${user.profileImageUrl} alt=${msg("Your avatar")} />`
          : html`<span class="lk-note">${msg("No avatar yet.")}</span>`}
        <div class="lk-stack">
          ${filePicker({
            id: fileId,
            label: msg("Upload a picture"),
            accept: "image/png,image/jpeg,image/webp,image/gif",
            busy: this.avatarBusy,
            describedBy: this.avatarError ? `${fileId}-error` : null,
            onChange: this.upload,
          })}
          ${this.avatarError ? html`<p class="lk-error" id=${`${fileId}-error`} role="alert">${this.avatarError}</p>` : nothing}
          ${user.profileImageUrl ? html`<div class="lk-actions"><button type="button" ?disabled=${this.avatarBusy} @click=${this.removeAvatar}>${msg("Remove avatar")}</button></div>` : nothing}
        </div>
      </div>
      <p class="lk-note" role="status">${this.status}</p>`;
  }

  private saveName = async (event: Event): Promise<void> => {
    const { "display-name": name = "" } = formValues(event);
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    this.status = "";
    try {
      const user = await this.app.updateUser({ displayName: name.trim() || null });
      this.status = msg("Your name has been saved.");
      this.emit("auth-profile-updated", { displayName: user.displayName, profileImageUrl: user.profileImageUrl });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
      focusError(this);
    } finally {
      this.busy = false;
    }
  };

  private upload = async (event: Event): Promise<void> => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file || !this.app) return;
    this.avatarBusy = true;
    this.avatarError = null;
    this.status = "";
    try {
      const dataUrl = await avatarDataUrl(file);
      await this.saveAvatar(dataUrl, msg("Your avatar has been saved."));
    } catch (error) {
      this.avatarError =
        error instanceof AvatarTooLargeError
          ? msg("This picture is too large even after resizing. Try a simpler one.")
          : error instanceof DOMException || error instanceof TypeError
            ? msg("This file cannot be read as a picture. Choose a PNG, JPEG, WebP or GIF image.")
            : describeError(error).message;
    } finally {
      this.avatarBusy = false;
      // The same file may be chosen again after a failure.
      input.value = "";
    }
  };

  private removeAvatar = async (): Promise<void> => {
    if (!this.app || this.avatarBusy) return;
    const confirmed = await confirmAction(this, {
      title: msg("Remove your avatar?"),
      message: msg("The picture will be deleted. You can upload another one at any time."),
      confirmLabel: msg("Remove"),
    });
    if (!confirmed || this.avatarBusy) return;
    this.avatarBusy = true;
    this.avatarError = null;
    try {
      await this.saveAvatar(null, msg("Your avatar has been removed."));
      // The button that had focus is gone: keep keyboard users in the section.
      await this.updateComplete;
      this.querySelector<HTMLInputElement>("input[type=file]")?.focus();
    } catch (error) {
      this.avatarError = describeError(error).message;
    } finally {
      this.avatarBusy = false;
    }
  };

  private async saveAvatar(profileImageUrl: string | null, done: string): Promise<void> {
    const user = await this.app!.updateUser({ profileImageUrl });
    this.status = done;
    this.emit("auth-profile-updated", { displayName: user.displayName, profileImageUrl: user.profileImageUrl });
  }
}
