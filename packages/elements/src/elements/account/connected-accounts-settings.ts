import type { ClientApp, OAuthConnection, Project } from "@latchkey/core";
import type { PropertyValues } from "lit";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError } from "../../base/errors.js";
import { OneAtATime } from "../../base/one-at-a-time.js";
import { msg, str } from "../../base/i18n.js";
import { providerIcon, providerName } from "../../base/provider-names.js";
import { keepFocusIn } from "./account-common.js";
import { UserListSection } from "./user-list-section.js";
import { confirmAction } from "./confirm-dialog.js";
import { reasonNote, WaysIn, type Change } from "./ways-in.js";

/**
 * The provider accounts (GitHub, Google, …) linked to the signed-in user: which one signs in, unlinking, and
 * linking another of the project's providers (through the provider's page, back here). Unlinking and turning
 * sign-in off ask first, and are held back, with the reason shown, for the user's last way to sign in (see
 * ways-in.ts).
 *
 * @element auth-connected-accounts-settings
 * @fires auth-oauth-unlinked - After a provider account was unlinked; `detail` is `{ id, providerId }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart oauth-icon - Each provider's icon.
 * @csspart dialog - The confirmation dialog for disconnecting an account or no longer signing in with it.
 * @csspart reason - Why an account cannot be disconnected or stop signing in.
 */
export class AuthConnectedAccountsSettingsElement extends UserListSection<OAuthConnection> {
  private readonly project = this.watch((app) => app.$project);
  private readonly waysIn = new WaysIn(this, { links: () => this.items });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.waysIn.track(this.app, this.user(), this.project());
  }

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
    const reasonId = `${labelId}-reason`;
    const busy = this.working === link.id;
    // The last way in: unticking and disconnecting are held back and point to the reason.
    const reason = link.allowSignIn && this.waysIn.blocks(noSignIn(link)) ? onlyLinkReason(link) : null;
    const describedBy = reason ? `${labelId} ${reasonId}` : labelId;
    return html`<li>
      ${providerIcon(this.app?.baseUrl, link.type)}
      <span class="lk-grow" id=${labelId}>${providerName(link.type)}${link.email ? html`<br /><span class="lk-note">${link.email}</span>` : nothing}</span>
      <label class="lk-check" title=${reason ?? nothing}><input type="checkbox" .checked=${link.allowSignIn} ?disabled=${busy || !!reason} aria-describedby=${describedBy}
        @change=${(event: Event) => this.setSignIn(link, event.target as HTMLInputElement)} />${msg("Use to sign in")}</label>
      <button type="button" class="lk-danger" aria-describedby=${describedBy} title=${reason ?? nothing} ?disabled=${busy || !!reason} aria-busy=${busy ? "true" : "false"}
        @click=${() => this.unlink(link)}>${msg("Disconnect")}</button>
      ${reasonNote(reasonId, reason)}
    </li>`;
  }

  /** Ticking turns sign-in on at once; unticking asks first (the box goes back to ticked if the answer is no). */
  private async setSignIn(link: OAuthConnection, box: HTMLInputElement): Promise<void> {
    const allowSignIn = box.checked;
    if (!this.app) return;
    const name = providerName(link.type);
    if (!allowSignIn) {
      const confirmed = await confirmAction(this, {
        title: msg(str`Stop signing in with ${name}?`),
        message: msg("The account stays connected, but it will no longer sign you in."),
        confirmLabel: msg("Stop using for sign-in"),
      });
      if (!confirmed) {
        box.checked = true;
        return;
      }
    }
    await this.act(
      link,
      async (app) => {
        await app.updateOAuthProvider(link.id, { allowSignIn });
        this.status = allowSignIn ? msg(str`You can now sign in with ${name}.`) : msg(str`${name} no longer signs you in.`);
      },
      allowSignIn ? undefined : noSignIn(link),
    );
    // Refused or failed: the box shows what the server has.
    box.checked = this.items?.find((item) => item.id === link.id)?.allowSignIn ?? allowSignIn;
  }

  private async unlink(link: OAuthConnection): Promise<void> {
    if (!this.app) return;
    const confirmed = await confirmAction(this, {
      title: msg(str`Disconnect ${providerName(link.type)}?`),
      message: msg("You will no longer be able to sign in with this account or use it in this app."),
      confirmLabel: msg("Disconnect"),
    });
    if (!confirmed) return;
    await this.act(
      link,
      async (app) => {
        await app.deleteOAuthProvider(link.id);
        this.status = msg(str`${providerName(link.type)} has been disconnected.`);
        this.emit("auth-oauth-unlinked", { id: link.id, providerId: link.providerId });
      },
      (facts) => ({ links: facts.links.filter((other) => other.id !== link.id) }),
    );
  }

  private readonly actions = new OneAtATime();

  /**
   * Runs one action on a link, after any still running; one that could take away a way in (`change`) is checked
   * again on what the server says now.
   */
  private act(link: OAuthConnection, action: (app: ClientApp) => Promise<void>, change?: Change): Promise<void> {
    return this.actions.run(() => this.actNow(link, action, change));
  }

  private async actNow(link: OAuthConnection, action: (app: ClientApp) => Promise<void>, change?: Change): Promise<void> {
    if (!this.app) return;
    const app = this.app;
    this.working = link.id;
    this.error = null;
    this.status = "";
    try {
      if (change && (await this.waysIn.blocksNow(app, change))) {
        this.error = onlyLinkReason(link);
        // What this page showed was out of date (another tab?): show what holds the button back now.
        await Promise.all([this.load(app), app.$user.refresh()]);
        return;
      }
      await action(app);
      await this.load(app);
    } catch (error) {
      this.error = describeError(error).message;
      await this.load(this.app);
    } finally {
      this.working = null;
    }
    void keepFocusIn(this, ".lk-list button:not(:disabled)");
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

/** The link no longer signs in (what unticking does; disconnecting counts the same). */
function noSignIn(link: OAuthConnection): Change {
  return (facts) => ({ links: facts.links.map((other) => (other.id === link.id ? { ...other, allowSignIn: false } : other)) });
}

const onlyLinkReason = (link: OAuthConnection): string =>
  msg(str`${providerName(link.type)} is your only way to sign in. To disconnect it or stop signing in with it, first add another way to sign in.`);
