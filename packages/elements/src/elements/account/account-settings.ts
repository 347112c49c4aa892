import type { CurrentUser, Loadable, Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { msg } from "../../base/i18n.js";
import { projectGate } from "../../base/project-gate.js";
import { accountCss } from "./account-common.js";

/**
 * The signed-in user's account page: every section below under its own heading, each also usable alone as
 * its element and hideable here by attribute. API keys show only when the project allows user API keys, the
 * danger zone only when it lets users delete their account. Signed out, it offers the sign-in page.
 *
 * Section order: profile, emails, password, passkeys (when the project enables them), two-factor
 * authentication, sessions, teams, notifications, API keys, danger zone.
 *
 * The sections are grouped under tabs (profile, security, teams, notifications, api-keys, danger-zone):
 * a tab list when the element is wide, a menu (a native select) when it is narrower than 34rem. The page's
 * hash deep-links: `#security` opens that tab, a section's key (`#sessions`) opens its tab and scrolls to it,
 * and choosing a tab puts its key in the hash (without a history entry), so the address can be shared.
 *
 * @element auth-account-settings
 * @attr hide-profile - Hide the profile section.
 * @attr hide-emails - Hide the email addresses section.
 * @attr hide-password - Hide the password section.
 * @attr hide-passkeys - Hide the passkeys section.
 * @attr hide-connected-accounts - Hide the connected accounts section (OAuth providers; shown when the project enables some).
 * @attr hide-mfa - Hide the two-factor authentication section.
 * @attr hide-sessions - Hide the sessions section.
 * @attr hide-teams - Hide the teams section.
 * @attr hide-notifications - Hide the email notifications section.
 * @attr hide-api-keys - Hide the API keys section.
 * @attr hide-danger-zone - Hide the delete-account section.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The page.
 * @csspart section - Each section (heading and element).
 * @csspart tab - Each tab (wide layout).
 * @csspart menu - The section menu (narrow layout).
 * @csspart label - The section menu's label.
 * @csspart link - The "Sign in" link shown when signed out.
 */
export class AuthAccountSettingsElement extends AuthElement {
  static override css = `${accountCss}
:where(.lk-account){container-type:inline-size;max-width:40rem;margin:0 auto;background:var(--lk-bg);padding:calc(var(--lk-s)*1.5);border:1px solid var(--lk-border);border-radius:var(--lk-r);display:grid;grid-template-columns:minmax(0,1fr);gap:var(--lk-s)}
:where(.lk-account [role=tabpanel]){display:grid;grid-template-columns:minmax(0,1fr);gap:calc(var(--lk-s)*1.5)}
:where(.lk-account [role=tabpanel]>section+section){padding-top:var(--lk-s);border-top:1px solid var(--lk-border)}
:where(.lk-tabs){display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--lk-border)}
:where(.lk-tabs>button){border:0;border-bottom:3px solid transparent;border-radius:0;background:none;font-weight:500;padding:.4rem .7rem}
:where(.lk-tabs>button[aria-selected=true]){border-bottom-color:var(--lk-primary);font-weight:700}
:where(.lk-section-menu){display:none}
@container (max-width:34rem){:where(.lk-tabs){display:none}:where(.lk-section-menu){display:grid}}
`;
  static override properties = {
    hideProfile: { type: Boolean, attribute: "hide-profile" },
    hideEmails: { type: Boolean, attribute: "hide-emails" },
    hidePassword: { type: Boolean, attribute: "hide-password" },
    hidePasskeys: { type: Boolean, attribute: "hide-passkeys" },
    hideConnectedAccounts: { type: Boolean, attribute: "hide-connected-accounts" },
    hideMfa: { type: Boolean, attribute: "hide-mfa" },
    hideSessions: { type: Boolean, attribute: "hide-sessions" },
    hideTeams: { type: Boolean, attribute: "hide-teams" },
    hideNotifications: { type: Boolean, attribute: "hide-notifications" },
    hideApiKeys: { type: Boolean, attribute: "hide-api-keys" },
    hideDangerZone: { type: Boolean, attribute: "hide-danger-zone" },
    tab: { state: true },
  };

  declare hideProfile: boolean;
  declare hideEmails: boolean;
  declare hidePassword: boolean;
  declare hidePasskeys: boolean;
  declare hideConnectedAccounts: boolean;
  declare hideMfa: boolean;
  declare hideSessions: boolean;
  declare hideTeams: boolean;
  declare hideNotifications: boolean;
  declare hideApiKeys: boolean;
  declare hideDangerZone: boolean;
  /** The chosen tab's key; null: the one the hash names, else the first. */
  declare tab: string | null;
  /** A section the hash named, scrolled to once it is shown. */
  private pendingScroll: string | null = null;
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.hideProfile = false;
    this.hideEmails = false;
    this.hidePassword = false;
    this.hidePasskeys = false;
    this.hideConnectedAccounts = false;
    this.hideMfa = false;
    this.hideSessions = false;
    this.hideTeams = false;
    this.hideNotifications = false;
    this.hideApiKeys = false;
    this.hideDangerZone = false;
    this.tab = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener("hashchange", this.followHash);
    this.followHash();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener("hashchange", this.followHash);
  }

  /** A hash naming a tab or one of its sections opens that tab (and scrolls to the section). */
  private followHash = (): void => {
    const key = decodeURIComponent(location.hash.slice(1));
    const group = GROUPS.find(([tab, sections]) => tab === key || sections.includes(key));
    if (!group) return;
    this.tab = group[0];
    this.pendingScroll = group[0] === key ? null : key;
  };

  protected override updated(): void {
    const section = this.pendingScroll && this.querySelector(`section[data-section="${this.pendingScroll}"]`);
    if (!section) return;
    this.pendingScroll = null;
    section.scrollIntoView({ block: "start" });
  }

  protected override render(): TemplateResult {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    let body: TemplateResult;
    if (user?.status === "ready" && !user.value) {
      body = html`<p>${msg("Sign in to manage your account.")}</p>
        <div class="lk-footer"><a class="lk-button lk-primary" part="link" href=${this.app?.urls.signIn ?? "/"}>${msg("Sign in")}</a></div>`;
    } else if (user?.status === "ready") {
      body = projectGate(this.project() as Loadable<Project> | undefined, (project) => this.sections(project));
    } else if (user?.status === "error") {
      body = html`<p class="lk-alert" role="alert">${msg("Account unavailable")}</p>`;
    } else {
      body = html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`;
    }
    return html`<div class="lk-account" part="base"><h2 tabindex="-1">${msg("Account settings")}</h2>${body}</div>`;
  }

  private sections(project: Project): TemplateResult {
    const shown = (key: string): TemplateResult | undefined => {
      const [hidden, title, element] = this.sectionOf(key, project);
      if (hidden) return undefined;
      const id = `${this.uid}-${key}`;
      return html`<section part="section" data-section=${key} aria-labelledby=${id}><h3 id=${id}>${title}</h3>${element}</section>`;
    };
    const tabs = GROUPS.map(([key, keys]) => ({ key, sections: keys.map(shown).filter((t) => t !== undefined) })).filter((t) => t.sections.length);
    const current = tabs.find((t) => t.key === this.tab) ?? tabs[0];
    const tabId = (key: string) => `${this.uid}-tab-${key}`;
    const panelId = (key: string) => `${this.uid}-panel-${key}`;
    return html`<div class="lk-tabs" role="tablist" aria-label=${msg("Account settings")} @keydown=${this.tabKeys}>
        ${tabs.map(
          ({ key }) => html`<button type="button" role="tab" part="tab" id=${tabId(key)} aria-controls=${panelId(key)} aria-selected=${key === current?.key ? "true" : "false"}
            tabindex=${key === current?.key ? "0" : "-1"} @click=${() => this.choose(key)}>${this.tabTitle(key)}</button>`,
        )}
      </div>
      <label class="lk-section-menu" part="label">${msg("Section")}
        <select part="menu" @change=${(event: Event) => this.choose((event.target as HTMLSelectElement).value)}>
          ${tabs.map(({ key }) => html`<option value=${key} ?selected=${key === current?.key}>${this.tabTitle(key)}</option>`)}
        </select></label>
      ${tabs.map(
        ({ key, sections }) => html`<div role="tabpanel" id=${panelId(key)} aria-labelledby=${tabId(key)} ?hidden=${key !== current?.key}>${sections}</div>`,
      )}`;
  }

  /** Whether a section is left out, its heading and its element. */
  private sectionOf(key: string, project: Project): [boolean, string, TemplateResult] {
    const { config } = project;
    switch (key) {
      case "profile":
        return [this.hideProfile, msg("Profile"), html`<auth-profile-settings></auth-profile-settings>`];
      case "emails":
        return [this.hideEmails, msg("Email addresses"), html`<auth-email-settings></auth-email-settings>`];
      case "password":
        return [this.hidePassword, msg("Password"), html`<auth-password-settings></auth-password-settings>`];
      case "connected-accounts":
        return [this.hideConnectedAccounts || config.oauthProviders.length === 0, msg("Connected accounts"), html`<auth-connected-accounts-settings></auth-connected-accounts-settings>`];
      case "passkeys":
        return [this.hidePasskeys || !config.passkeyEnabled, msg("Passkeys"), html`<auth-passkey-settings></auth-passkey-settings>`];
      case "mfa":
        return [this.hideMfa, msg("Two-factor authentication"), html`<auth-mfa-settings></auth-mfa-settings>`];
      case "sessions":
        return [this.hideSessions, msg("Active sessions"), html`<auth-session-settings></auth-session-settings>`];
      case "teams":
        return [this.hideTeams, msg("Teams"), html`<auth-team-list-settings></auth-team-list-settings>`];
      case "notifications":
        return [this.hideNotifications, msg("Email notifications"), html`<auth-notification-settings></auth-notification-settings>`];
      case "api-keys":
        return [this.hideApiKeys || !config.allowUserApiKeys, msg("API keys"), html`<auth-api-key-settings></auth-api-key-settings>`];
      default:
        return [this.hideDangerZone || !config.clientUserDeletionEnabled, msg("Danger zone"), html`<auth-delete-account></auth-delete-account>`];
    }
  }

  private tabTitle(key: string): string {
    if (key === "profile") return msg("Profile");
    if (key === "security") return msg("Security");
    if (key === "teams") return msg("Teams");
    if (key === "notifications") return msg("Email notifications");
    if (key === "api-keys") return msg("API keys");
    return msg("Danger zone");
  }

  private choose(key: string): void {
    this.tab = key;
    // The address names the tab, for sharing and reloading; replaced, so Back still leaves the page.
    if (decodeURIComponent(location.hash.slice(1)) !== key) history.replaceState(history.state, "", `#${key}`);
  }

  /** The tab list's keys (WAI-ARIA tabs, automatic activation): arrows, Home and End move and choose. */
  private tabKeys = (event: KeyboardEvent): void => {
    const tabs = [...this.querySelectorAll<HTMLElement>("[role=tab]")];
    const index = tabs.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined || index < 0) return;
    event.preventDefault();
    // Right-to-left pages read the row the other way round; the arrows follow what the eye sees.
    const step = getComputedStyle(this).direction === "rtl" && event.key.startsWith("Arrow") ? 2 * index - to : to;
    const target = tabs[(step + tabs.length) % tabs.length]!;
    this.choose(target.id.slice(`${this.uid}-tab-`.length));
    void this.updateComplete.then(() => target.focus());
  };
}

/** The tabs and the sections under each, in order. */
const GROUPS: Array<[string, string[]]> = [
  ["profile", ["profile", "emails"]],
  ["security", ["password", "connected-accounts", "passkeys", "mfa", "sessions"]],
  ["teams", ["teams"]],
  ["notifications", ["notifications"]],
  ["api-keys", ["api-keys"]],
  ["danger-zone", ["danger-zone"]],
];
