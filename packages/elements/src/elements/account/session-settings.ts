import type { ClientApp, UserSession } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError } from "../../base/errors.js";
import { msg, str } from "../../base/i18n.js";
import { absoluteTime, keepFocusIn, relativeTime } from "./account-common.js";
import { confirmAction } from "./confirm-dialog.js";
import { UserListSection } from "./user-list-section.js";
import { browserAndSystem, countryName } from "./user-agent.js";

/**
 * Where the signed-in user is signed in: every session with its browser and system, when and from where
 * (address, and country when the server knows it) it was last used, the one of this browser marked. Other
 * sessions can be revoked after confirming (the device is signed out at its next refresh); this one ends with
 * signing out instead.
 *
 * @element auth-session-settings
 * @fires auth-session-revoked - After another session was revoked; `detail` is `{ sessionId }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart dialog - The confirmation dialog for revoking a session.
 */
export class AuthSessionSettingsElement extends UserListSection<UserSession> {
  protected async fetchItems(app: ClientApp): Promise<UserSession[]> {
    const sessions = await app.listSessions();
    // This browser first, then the most recently used.
    const used = (s: UserSession) => (s.lastUsedAt ?? s.createdAt).getTime();
    return sessions.sort((a, b) => Number(b.isCurrentSession) - Number(a.isCurrentSession) || used(b) - used(a));
  }

  protected override render(): TemplateResult {
    return this.section((sessions) => html`<ul class="lk-list">${sessions.map((session) => this.session(session))}</ul>`);
  }

  private session(session: UserSession): TemplateResult {
    const lastUsed = session.lastUsedAt ?? session.createdAt;
    const geo = session.geoInfo;
    const place = geo ? [geo.cityName, geo.countryCode && countryName(geo.countryCode)].filter(Boolean).join(", ") : "";
    const where = [geo?.ip, place].filter(Boolean).join(" · ");
    const labelId = `${this.uid}-${session.id}`;
    return html`<li>
      <span class="lk-grow" id=${labelId}>
        ${this.device(session)}
        <br /><span class="lk-note">${msg(str`Last used ${relativeTime(lastUsed)}`)}
          (<time datetime=${lastUsed.toISOString()}>${absoluteTime(lastUsed)}</time>)${where ? html` · ${where}` : nothing}</span>
      </span>
      ${session.isCurrentSession
        ? html`<span class="lk-badge">${msg("Current session")}</span>`
        : html`<button type="button" class="lk-danger" aria-describedby=${labelId} ?disabled=${this.working === session.id}
            aria-busy=${this.working === session.id ? "true" : "false"} @click=${() => this.revoke(session)}>${msg("Revoke")}</button>`}
    </li>`;
  }

  /** "Chrome on macOS", as far as the session's User-Agent tells. */
  private device(session: UserSession): string {
    const { browser, system } = session.userAgent ? browserAndSystem(session.userAgent) : {};
    if (browser && system) return msg(str`${browser} on ${system}`);
    return browser ?? system ?? (session.isCurrentSession ? msg("This browser") : msg("Another browser or device"));
  }

  private async revoke(session: UserSession): Promise<void> {
    if (this.working || !this.app) return;
    const confirmed = await confirmAction(this, {
      title: msg("Revoke this session?"),
      message: msg(str`${this.device(session)} will be signed out and must sign in again.`),
      confirmLabel: msg("Revoke"),
    });
    if (!confirmed || this.working) return;
    this.working = session.id;
    this.error = null;
    this.status = "";
    try {
      await this.app.revokeSession(session.id);
      await this.load(this.app);
      this.status = msg("The session has been revoked. That device is signed out.");
      this.emit("auth-session-revoked", { sessionId: session.id });
    } catch (error) {
      this.error = describeError(error).message;
    } finally {
      this.working = null;
    }
    // Once the buttons are enabled again (a disabled button cannot take focus).
    void keepFocusIn(this, ".lk-list button");
  }
}
