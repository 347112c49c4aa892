import type { ClientApp, Loadable, Project, UserApiKey, UserApiKeyFirstView } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import type { PropertyValues } from "lit";
import { describeError, type ShownError } from "../../base/errors.js";
import { OneAtATime } from "../../base/one-at-a-time.js";
import { formError, formValues, submit } from "../../base/forms.js";
import { getLocale, msg, str } from "../../base/i18n.js";
import { absoluteDate, accountCss, keepFocusIn, userIdOf } from "./account-common.js";
import { confirmAction } from "./confirm-dialog.js";

/** The expiry choices offered, in days (0: never). */
const EXPIRY_DAYS = [0, 30, 90, 365] as const;
const DAY = 24 * 3600 * 1000;

/**
 * The signed-in user's API keys (when the project allows them): description, last four characters, expiry,
 * revoked. A new key's whole value is shown once, in a dialog with a copy button; it cannot be shown again.
 *
 * @element auth-api-key-settings
 * @fires auth-api-key-created - After a key was created; `detail` is `{ apiKeyId }` (never the key itself).
 * @fires auth-api-key-revoked - After a key was revoked; `detail` is `{ apiKeyId }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart input - The description input.
 * @csspart submit - The create button.
 * @csspart dialog - The dialogs (new key, confirm revoke).
 * @csspart label - The labels of the new key's fields.
 * @csspart error - The form-level error.
 */
export class AuthApiKeySettingsElement extends AuthElement {
  static override css = `${accountCss}
:where(.lk-key){font-family:ui-monospace,monospace;font-size:.9em}
`;
  static override properties = {
    keys: { state: true },
    created: { state: true },
    copied: { state: true },
    busy: { state: true },
    working: { state: true },
    error: { state: true },
    status: { state: true },
  };

  protected declare keys: UserApiKey[] | null;
  // The key just created, shown in the dialog until it is closed.
  protected declare created: UserApiKeyFirstView | null;
  protected declare copied: boolean;
  protected declare busy: boolean;
  protected declare working: string | null;
  protected declare error: ShownError | null;
  protected declare status: string;

  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);
  private loadedFor: string | null | undefined;

  constructor() {
    super();
    this.keys = null;
    this.created = null;
    this.copied = false;
    this.busy = false;
    this.working = null;
    this.error = null;
    this.status = "";
  }

  /** Loads the list once the user is known, and again if another user signs in. */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const userId = userIdOf(this.user());
    if (userId === undefined || userId === this.loadedFor || !this.app) return;
    this.loadedFor = userId;
    this.error = null;
    this.keys = null;
    if (userId) void this.load(this.app);
  }

  private async load(app: ClientApp): Promise<void> {
    try {
      const keys = await app.listApiKeys();
      this.keys = keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    }
  }

  protected override render(): TemplateResult {
    const project = this.project() as Loadable<Project> | undefined;
    if (project?.status === "ready" && !project.value.config.allowUserApiKeys) {
      return html`<div class="lk-section" part="base"><p class="lk-note">${msg("This project does not offer API keys.")}</p></div>`;
    }
    const descriptionId = `${this.uid}-description`;
    const expiryId = `${this.uid}-expiry`;
    return html`<div class="lk-section lk-stack" part="base">
      ${this.loadedFor === null
        ? html`<p class="lk-note">${msg("Sign in to manage your account.")}</p>`
        : this.keys === null && !this.error
          ? html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`
          : nothing}
      ${this.keys
        ? this.keys.length
          ? html`<ul class="lk-list">${this.keys.map((key) => this.key(key))}</ul>`
          : html`<p class="lk-note">${msg("You have no API keys.")}</p>`
        : nothing}
      <p class="lk-note" role="status">${this.status}</p>
      <form @submit=${this.create}>
        <label part="label" for=${descriptionId}>${msg("Description")}
          <input part="input" id=${descriptionId} name="description" autocomplete="off" required maxlength="200" /></label>
        <label part="label" for=${expiryId}>${msg("Expires")}
          <select id=${expiryId} name="expiry">
            ${EXPIRY_DAYS.map((days) => html`<option value=${days} ?selected=${days === 90}>${days === 0 ? msg("Never") : this.inDays(days)}</option>`)}
          </select></label>
        ${formError(this.error)} ${submit(msg("Create API key"), msg("Creating…"), this.busy)}
      </form>
      ${this.created ? this.createdDialog(this.created) : nothing}
    </div>`;
  }

  private inDays(days: number): string {
    return new Intl.NumberFormat(getLocale(), { style: "unit", unit: "day", unitDisplay: "long" }).format(days);
  }

  private key(key: UserApiKey): TemplateResult {
    const labelId = `${this.uid}-${key.id}`;
    const expired = key.expiresAt !== null && key.expiresAt.getTime() <= Date.now();
    const active = !key.manuallyRevokedAt && !expired;
    return html`<li>
      <span class="lk-grow" id=${labelId}>${key.description}
        <br /><span class="lk-note"><span class="lk-key">…${key.value.lastFour}</span> ·
          ${key.expiresAt ? msg(str`Expires ${absoluteDate(key.expiresAt)}`) : msg("Never expires")}</span></span>
      ${key.manuallyRevokedAt ? html`<span class="lk-badge">${msg("Revoked")}</span>` : expired ? html`<span class="lk-badge">${msg("Expired")}</span>` : nothing}
      ${active
        ? html`<button type="button" class="lk-danger" aria-describedby=${labelId} ?disabled=${this.working === key.id} @click=${() => this.revoke(key)}>${msg("Revoke")}</button>`
        : nothing}
    </li>`;
  }

  private createdDialog(key: UserApiKeyFirstView): TemplateResult {
    const titleId = `${this.uid}-created-title`;
    const valueId = `${this.uid}-created-value`;
    return html`<dialog class="lk-dialog" part="dialog" aria-labelledby=${titleId} @close=${this.closeCreated}>
      <div class="lk-stack">
        <h3 id=${titleId}>${msg("Your new API key")}</h3>
        <p>${msg("Copy it now: it will not be shown again.")}</p>
        <label for=${valueId}>${key.description}
          <input id=${valueId} class="lk-key" readonly .value=${key.value} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} /></label>
        <div class="lk-actions">
          <button type="button" class="lk-primary" autofocus @click=${this.copy}>${msg("Copy")}</button>
          <button type="button" @click=${() => this.querySelector("dialog")?.close()}>${msg("Done")}</button>
        </div>
        <p class="lk-note" role="status">${this.copied ? msg("Copied.") : ""}</p>
      </div>
    </dialog>`;
  }

  /** The dialog appears in the template; opening it modally (focus trapped) can only happen once it is in the DOM. */
  protected override updated(): void {
    const dialog = this.querySelector<HTMLDialogElement>("dialog.lk-dialog[aria-labelledby$=created-title]");
    if (dialog && !dialog.open) dialog.showModal();
  }

  private copy = async (): Promise<void> => {
    if (!this.created) return;
    try {
      await navigator.clipboard.writeText(this.created.value);
      this.copied = true;
    } catch {
      // Clipboard access can be refused (permissions, insecure page): select the key for a manual copy.
      this.querySelector<HTMLInputElement>(`#${this.uid}-created-value`)?.select();
      this.status = msg("Copying was not allowed here. The key is selected: copy it with your keyboard.");
    }
  };

  private closeCreated = (): void => {
    this.created = null;
    this.copied = false;
    // Back to where the person was: the create button.
    void this.updateComplete.then(() => this.querySelector<HTMLElement>("button[type=submit]")?.focus());
  };

  private create = async (event: Event): Promise<void> => {
    const form = event.target as HTMLFormElement;
    const { description = "", expiry = "0" } = formValues(event);
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    this.status = "";
    try {
      const days = Number(expiry);
      const created = await this.app.createApiKey({ description: description.trim(), expiresAt: days ? new Date(Date.now() + days * DAY) : null });
      form.reset();
      await this.load(this.app);
      this.created = created;
      this.emit("auth-api-key-created", { apiKeyId: created.id });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    } finally {
      this.busy = false;
    }
  };

  private readonly actions = new OneAtATime();

  private async revoke(key: UserApiKey): Promise<void> {
    if (!this.app) return;
    const confirmed = await confirmAction(this, {
      title: msg(str`Revoke ${key.description}?`),
      message: msg("Anything using this key will stop working at once. This cannot be undone."),
      confirmLabel: msg("Revoke key"),
    });
    if (confirmed) await this.actions.run(() => this.revokeNow(key));
  }

  private async revokeNow(key: UserApiKey): Promise<void> {
    if (!this.app) return;
    this.working = key.id;
    this.error = null;
    try {
      await this.app.revokeApiKey(key.id);
      await this.load(this.app);
      this.status = msg("The key has been revoked.");
      this.emit("auth-api-key-revoked", { apiKeyId: key.id });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    } finally {
      this.working = null;
    }
    // Once the buttons are enabled again (a disabled button cannot take focus).
    void keepFocusIn(this, ".lk-list button", "input[name=description]");
  }
}
