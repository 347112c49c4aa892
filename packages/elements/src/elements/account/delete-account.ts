import type { CurrentUser, Loadable, Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError } from "../../base/errors.js";
import { formValues } from "../../base/forms.js";
import { msg, str } from "../../base/i18n.js";
import { accountCss, signedInGate } from "./account-common.js";

/** The word that confirms a deletion, besides the account's own email. Kept in English on purpose: it is typed, not read. */
const CONFIRM_WORD = "DELETE";

/**
 * The danger zone: deletes the signed-in user's account for good (when the project lets users do so). A
 * dialog asks to type DELETE or the account's email first; then the account is deleted, this browser is
 * signed out and the page goes to the after-sign-out URL.
 *
 * @element auth-delete-account
 * @fires auth-account-deleted - After the account was deleted; `detail` is `{ userId }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart button - The button that opens the confirmation.
 * @csspart dialog - The confirmation dialog.
 * @csspart input - The confirmation input.
 * @csspart submit - The final delete button.
 * @csspart label - The confirmation input's label.
 */
export class AuthDeleteAccountElement extends AuthElement {
  static override css = `${accountCss}
:where(.lk-danger-zone){border:1px solid var(--lk-error);border-radius:var(--lk-r);padding:var(--lk-s)}
:where(.lk .lk-dialog button[type=submit].lk-danger-fill){background:var(--lk-error);border-color:var(--lk-error);color:var(--lk-bg)}
`;
  static override properties = { busy: { state: true }, error: { state: true } };

  protected declare busy: boolean;
  protected declare error: string | null;
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);
  private opener: HTMLElement | null = null;

  constructor() {
    super();
    this.busy = false;
    this.error = null;
  }

  protected override render(): TemplateResult {
    return html`<div class="lk-section" part="base">${signedInGate(this.user() as Loadable<CurrentUser | null> | undefined, (user) => this.zone(user))}</div>`;
  }

  private zone(user: CurrentUser): TemplateResult {
    const project = this.project() as Loadable<Project> | undefined;
    if (project?.status === "ready" && !project.value.config.clientUserDeletionEnabled) {
      return html`<p class="lk-note">${msg("Accounts cannot be deleted here. Ask the app's team to delete yours.")}</p>`;
    }
    const titleId = `${this.uid}-delete-title`;
    const inputId = `${this.uid}-confirmation`;
    const word = user.primaryEmail ? msg(str`Type ${CONFIRM_WORD} or your email (${user.primaryEmail}) to confirm.`) : msg(str`Type ${CONFIRM_WORD} to confirm.`);
    return html`<div class="lk-danger-zone lk-stack">
      <p>${msg("Deleting your account removes your profile, sign-in methods and team memberships. This cannot be undone.")}</p>
      <div class="lk-actions"><button type="button" class="lk-danger" part="button" @click=${this.open}>${msg("Delete account")}</button></div>
      <dialog class="lk-dialog" part="dialog" aria-labelledby=${titleId} @close=${this.closed}>
        <form class="lk-stack" @submit=${(event: Event) => this.confirm(event, user)}>
          <h3 id=${titleId}>${msg("Delete your account?")}</h3>
          <p>${msg("Your account and everything in it will be deleted for good.")}</p>
          <label part="label" for=${inputId}>${word}
            <input part="input" id=${inputId} name="confirmation" autocomplete="off" required autocapitalize="off" spellcheck="false"
              aria-invalid=${this.error ? "true" : "false"} aria-describedby=${this.error ? `${inputId}-error` : nothing} /></label>
          ${this.error ? html`<p class="lk-error" id=${`${inputId}-error`} role="alert">${this.error}</p>` : nothing}
          <div class="lk-actions">
            <button type="button" @click=${() => this.querySelector("dialog")?.close()}>${msg("Cancel")}</button>
            ${submitDanger(this.busy)}
          </div>
        </form>
      </dialog>
    </div>`;
  }

  private open = (event: Event): void => {
    this.opener = event.currentTarget as HTMLElement;
    this.error = null;
    this.querySelector("dialog")?.showModal();
  };

  private closed = (): void => {
    this.error = null;
    this.querySelector<HTMLFormElement>("dialog form")?.reset();
    // Back to the button that opened it (when the account still exists).
    if (this.opener?.isConnected) this.opener.focus();
  };

  private async confirm(event: Event, user: CurrentUser): Promise<void> {
    const { confirmation = "" } = formValues(event);
    if (this.busy || !this.app) return;
    const typed = confirmation.trim();
    const matches = typed === CONFIRM_WORD || (!!user.primaryEmail && typed.toLowerCase() === user.primaryEmail.toLowerCase());
    if (!matches) {
      this.error = msg("That does not match. Nothing was deleted.");
      void this.updateComplete.then(() => this.querySelector<HTMLInputElement>("input[name=confirmation]")?.focus());
      return;
    }
    this.busy = true;
    this.error = null;
    try {
      await this.app.deleteUser();
      this.querySelector("dialog")?.close();
      this.emit("auth-account-deleted", { userId: user.id });
      this.app.redirectTo("afterSignOut");
    } catch (error) {
      this.error = describeError(error).message;
    } finally {
      this.busy = false;
    }
  }
}

/** The final delete button: a submit (with its busy state) in the error colour. */
function submitDanger(busy: boolean): TemplateResult {
  return html`<button part="submit" type="submit" class="lk-danger-fill" ?disabled=${busy} aria-busy=${busy ? "true" : "false"}>${busy ? msg("Deleting…") : msg("Delete my account")}</button>`;
}
