import type { ClientApp, CurrentUser, OAuthConnection, Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError } from "../../base/errors.js";
import { msg, str } from "../../base/i18n.js";
import { providerIcon, providerName } from "../../base/provider-names.js";
import { keepFocusIn } from "./account-common.js";
import { UserListSection } from "./user-list-section.js";
import { confirmAction } from "./confirm-dialog.js";

/**
 * The provider accounts (GitHub, Google, …) linked to the signed-in user: which one signs in, unlinking (never
 * the last way to sign in), and linking another of the project's providers (through the provider's page, back here).
 *
 * @element auth-connected-accounts-settings
 * @fires auth-oauth-unlinked - After a provider account was unlinked; `detail` is `{ id, providerId }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart oauth-icon - Each provider's icon.
 */
export class AuthConnectedAccountsSettingsElement extends UserListSection<OAuthConnection> {
  private readonly project = this.watch((app) => app.$project);

  protected fetchItems(app: ClientApp): Promise<OAuthConnection[]> {
    return app.listOAuthProviders();
  }

  protected override render(): TemplateResult {
    const project = this.project();
    const providers = project?.status === "ready" ? (project.value as Project).config.oauthProviders : [];
    return this.section(
      (links) => html`${links.length === 0 ? html`<p class="lk-note">${msg("No accounts are connected.")}</p>` : html`<ul class="lk-list">${links.map((link) => this.link(link))}</ul>`}
        ${providers.length
          ? html`<div class="lk-actions">${providers.map(
              (p) => html`<button type="button" class="lk-oauth" ?disabled=${this.working !== null} @click=${() => this.connect(p.id)}>
                ${providerIcon(this.app?.baseUrl, p.id)}<span>${msg(str`Connect ${providerName(p.id)}`)}</span></button>`,
            )}</div>`
          : nothing}`,
    );
  }

  private link(link: OAuthConnection): TemplateResult {
    const labelId = `${this.uid}-${link.id}`;
    const busy = this.working === link.id;
    return html`<li>
      ${providerIcon(this.app?.baseUrl, link.type)}
      <span class="lk-grow" id=${labelId}>${providerName(link.type)}${link.email ? html`<br /><span class="lk-note">${link.email}</span>` : nothing}</span>
      <label class="lk-check"><input type="checkbox" .checked=${link.allowSignIn} ?disabled=${busy} aria-describedby=${labelId}
        @change=${(event: Event) => this.setSignIn(link, (event.target as HTMLInputElement).checked)} />${msg("Use to sign in")}</label>
      <button type="button" class="lk-danger" aria-describedby=${labelId} ?disabled=${busy} aria-busy=${busy ? "true" : "false"} @click=${() => this.unlink(link)}>${msg("Disconnect")}</button>
    </li>`;
  }

  /** Whether the user could still sign in without this link: a password, codes by email, a passkey, or another link. */
  private otherWayIn(link: OAuthConnection): boolean {
    const user = this.user();
    const current = user?.status === "ready" ? (user.value as CurrentUser | null) : null;
    if (!current) return false;
    if (current.hasPassword || current.otpAuthEnabled || current.passkeyAuthEnabled) return true;
    return (this.items ?? []).some((other) => other.id !== link.id && other.allowSignIn);
  }

  private async setSignIn(link: OAuthConnection, allowSignIn: boolean): Promise<void> {
    if (!this.app) return;
    if (!allowSignIn && !this.otherWayIn(link)) {
      this.error = msg("This is your only way to sign in. Set a password or connect another account first.");
      this.requestUpdate();
      return;
    }
    await this.act(link, async (app) => {
      await app.updateOAuthProvider(link.id, { allowSignIn });
      this.status = allowSignIn ? msg(str`You can now sign in with ${providerName(link.type)}.`) : msg(str`${providerName(link.type)} no longer signs you in.`);
    });
  }

  private async unlink(link: OAuthConnection): Promise<void> {
    if (!this.app) return;
    if (link.allowSignIn && !this.otherWayIn(link)) {
      this.error = msg("This is your only way to sign in. Set a password or connect another account first.");
      return;
    }
    const confirmed = await confirmAction(this, {
      title: msg(str`Disconnect ${providerName(link.type)}?`),
      message: msg("You will no longer be able to sign in with this account or use it in this app."),
      confirmLabel: msg("Disconnect"),
    });
    if (!confirmed) return;
    await this.act(link, async (app) => {
      await app.deleteOAuthProvider(link.id);
      this.status = msg(str`${providerName(link.type)} has been disconnected.`);
      this.emit("auth-oauth-unlinked", { id: link.id, providerId: link.providerId });
    });
  }

  private async act(link: OAuthConnection, action: (app: ClientApp) => Promise<void>): Promise<void> {
    if (this.working || !this.app) return;
    this.working = link.id;
    this.error = null;
    this.status = "";
    try {
      await action(this.app);
      await this.load(this.app);
    } catch (error) {
      this.error = describeError(error).message;
      await this.load(this.app);
    } finally {
      this.working = null;
    }
    void keepFocusIn(this, ".lk-list button");
  }

  private connect(providerId: string): void {
    if (!this.app) return;
    this.working = providerId;
    this.app.linkOAuthProvider(providerId).catch((error: unknown) => {
      this.error = describeError(error).message;
      this.working = null;
    });
  }
}
