import type { ClientApp, NotificationCategory } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError } from "../../base/errors.js";
import { msg } from "../../base/i18n.js";
import { UserListSection } from "./user-list-section.js";

/**
 * Which kinds of email the signed-in user receives: one checkbox per category, saved as soon as it changes.
 * Categories the project marks as not optional (sign-in codes, links that finish a flow) stay on and disabled.
 *
 * @element auth-notification-settings
 * @fires auth-notification-preference-changed - After a category was turned on or off; `detail` is `{ categoryId, enabled }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 */
export class AuthNotificationSettingsElement extends UserListSection<NotificationCategory> {
  protected fetchItems(app: ClientApp): Promise<NotificationCategory[]> {
    return app.listNotificationCategories();
  }

  protected override render(): TemplateResult {
    return this.section(
      (categories) => html`<fieldset class="lk-stack lk-fieldset">
        <legend class="lk-sr">${msg("Emails you receive")}</legend>
        ${categories.map((category) => this.category(category))}
      </fieldset>`,
    );
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
      this.items = (this.items ?? []).map((c) => (c.id === category.id ? { ...c, enabled } : c));
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
