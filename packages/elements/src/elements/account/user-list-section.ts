import type { ClientApp } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import type { PropertyValues } from "lit";
import { describeError } from "../../base/errors.js";
import { msg } from "../../base/i18n.js";
import { accountCss, userIdOf } from "./account-common.js";

/**
 * An account section listing things of the signed-in user (sessions, email categories, linked accounts): it
 * loads the list once the user is known and again if another user signs in, and shows the signed-out and
 * loading lines, an error and a status line the same way in every section.
 */
export abstract class UserListSection<T> extends AuthElement {
  static override css = accountCss;
  static override properties = { items: { state: true }, working: { state: true }, error: { state: true }, status: { state: true } };

  protected declare items: T[] | null;
  /** What an action is running on (an item's id), so its controls show they are busy. */
  protected declare working: string | null;
  protected declare error: string | null;
  protected declare status: string;

  protected readonly user = this.watch((app) => app.$user);
  private loadedFor: string | null | undefined;

  protected abstract fetchItems(app: ClientApp): Promise<T[]>;

  constructor() {
    super();
    this.items = null;
    this.working = null;
    this.error = null;
    this.status = "";
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const userId = userIdOf(this.user());
    if (userId === undefined || userId === this.loadedFor || !this.app) return;
    this.loadedFor = userId;
    this.error = null;
    this.items = null;
    if (userId) void this.load(this.app);
  }

  protected async load(app: ClientApp): Promise<void> {
    try {
      this.items = await this.fetchItems(app);
    } catch (error) {
      this.error = describeError(error).message;
    }
  }

  /** The section around `list` (shown once loaded): the signed-out or loading line before it, error and status after. */
  protected section(list: (items: T[]) => TemplateResult | typeof nothing): TemplateResult {
    return html`<div class="lk-section" part="base">
      ${this.loadedFor === null
        ? html`<p class="lk-note">${msg("Sign in to manage your account.")}</p>`
        : this.items === null && !this.error
          ? html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`
          : nothing}
      ${this.items ? list(this.items) : nothing}
      ${this.error ? html`<p class="lk-alert" role="alert">${this.error}</p>` : nothing}
      <p class="lk-note" role="status">${this.status}</p>
    </div>`;
  }
}
