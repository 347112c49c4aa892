import type { ClientApp, NotificationCategory } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import type { Changed } from "../../base/reactive-element.js";
import { describeError } from "../../base/errors.js";
import { msg } from "../../base/i18n.js";
import { accountCss, userIdOf } from "./account-common.js";

/**
 * Which kinds of email the signed-in user receives: one checkbox per category, saved as soon as it changes.
 * Categories the project marks as not optional (sign-in codes, links that finish a flow) stay on and disabled.
 *
 * @element auth-notification-settings
 * @fires auth-notification-preference-changed - After a category was turned on or off; `detail` is `{ categoryId, enabled }`.
 * @attr theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 */
export class AuthNotificationSettingsElement extends AuthElement {
  static override css = accountCss;
  static override properties = { categories: { state: true }, working: { state: true }, error: { state: true }, status: { state: true } };

  protected declare categories: NotificationCategory[] | null;
  protected declare working: string | null;
  protected declare error: string | null;
  protected declare status: string;

  private readonly user = this.watch((app) => app.$user);
  private loadedFor: string | null | undefined;

  constructor() {
    super();
    this.categories = null;
    this.working = null;
    this.error = null;
    this.status = "";
  }

  /** Loads the list once the user is known, and again if another user signs in. */
  protected override willUpdate(changed: Changed): void {
    super.willUpdate(changed);
    const userId = userIdOf(this.user());
    if (userId === undefined || userId === this.loadedFor || !this.app) return;
    this.loadedFor = userId;
    this.error = null;
    this.categories = null;
    if (userId) this.loadCategories(this.app);
  }

  private loadCategories(app: ClientApp): void {
    app.listNotificationCategories().then(
      (categories) => (this.categories = categories),
      (error: unknown) => (this.error = describeError(error).message),
    );
  }

  protected override render(): TemplateResult {
    return html`<div class="lk-section" part="base">
      ${this.loadedFor === null
        ? html`<p class="lk-note">${msg("Sign in to manage your account.")}</p>`
        : this.categories === null && !this.error
          ? html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`
          : nothing}
      ${this.categories
        ? html`<fieldset class="lk-stack lk-fieldset">
            <legend class="lk-sr">${msg("Emails you receive")}</legend>
            ${this.categories.map((category) => this.category(category))}
          </fieldset>`
        : nothing}
      ${this.error ? html`<p class="lk-alert" role="alert">${this.error}</p>` : nothing}
      <p class="lk-note" role="status">${this.status}</p>
    </div>`;
  }

  private category(category: NotificationCategory): TemplateResult {
    const noteId = `${this.uid}-${category.id}-note`;
    return html`<label class="lk-check">
      <input type="checkbox" name=${category.id} .checked=${category.enabled} ?disabled=${!category.canDisable || this.working === category.id}
        aria-describedby=${category.canDisable ? nothing : noteId} @change=${(event: Event) => this.toggle(category, (event.target as HTMLInputElement).checked)} />
      ${category.name}
      ${category.canDisable ? nothing : html`<span class="lk-note" id=${noteId}>(${msg("always sent")})</span>`}
    </label>`;
  }

  private async toggle(category: NotificationCategory, enabled: boolean): Promise<void> {
    if (!this.app) return;
    this.working = category.id;
    this.error = null;
    this.status = "";
    try {
      await this.app.setNotificationCategoryEnabled(category.id, enabled);
      this.categories = (this.categories ?? []).map((c) => (c.id === category.id ? { ...c, enabled } : c));
      this.status = msg("Your choice has been saved.");
      this.emit("auth-notification-preference-changed", { categoryId: category.id, enabled });
    } catch (error) {
      // The checkbox goes back to what the server still has (lit would not reset a value it already set).
      const box = this.querySelector<HTMLInputElement>(`input[name="${CSS.escape(category.id)}"]`);
      if (box) box.checked = category.enabled;
      this.error = describeError(error).message;
    } finally {
      this.working = null;
      // Disabling the box while saving took focus away from keyboard users: give it back.
      await this.updateComplete;
      this.querySelector<HTMLInputElement>(`input[name="${CSS.escape(category.id)}"]`)?.focus();
    }
  }
}
