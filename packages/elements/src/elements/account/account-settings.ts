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
 * @csspart link - The "Sign in" link shown when signed out.
 */
export class AuthAccountSettingsElement extends AuthElement {
  static override css = `${accountCss}
:where(.lk-account){max-width:40rem;margin:0 auto;background:var(--lk-bg);padding:calc(var(--lk-s)*1.5);border:1px solid var(--lk-border);border-radius:var(--lk-r);display:grid;grid-template-columns:minmax(0,1fr);gap:calc(var(--lk-s)*1.5)}
:where(.lk-account>section){padding-top:var(--lk-s);border-top:1px solid var(--lk-border)}
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
    const section = (key: string, hidden: boolean, title: string, element: TemplateResult) => {
      if (hidden) return nothing;
      const id = `${this.uid}-${key}`;
      return html`<section part="section" data-section=${key} aria-labelledby=${id}><h3 id=${id}>${title}</h3>${element}</section>`;
    };
    return html`
      ${section("profile", this.hideProfile, msg("Profile"), html`<auth-profile-settings></auth-profile-settings>`)}
      ${section("emails", this.hideEmails, msg("Email addresses"), html`<auth-email-settings></auth-email-settings>`)}
      ${section("password", this.hidePassword, msg("Password"), html`<auth-password-settings></auth-password-settings>`)}
      ${section("connected-accounts", this.hideConnectedAccounts || project.config.oauthProviders.length === 0, msg("Connected accounts"), html`<auth-connected-accounts-settings></auth-connected-accounts-settings>`)}
      ${section("passkeys", this.hidePasskeys || !project.config.passkeyEnabled, msg("Passkeys"), html`<auth-passkey-settings></auth-passkey-settings>`)}
      ${section("mfa", this.hideMfa, msg("Two-factor authentication"), html`<auth-mfa-settings></auth-mfa-settings>`)}
      ${section("sessions", this.hideSessions, msg("Active sessions"), html`<auth-session-settings></auth-session-settings>`)}
      ${section("teams", this.hideTeams, msg("Teams"), html`<auth-team-list-settings></auth-team-list-settings>`)}
      ${section("notifications", this.hideNotifications, msg("Email notifications"), html`<auth-notification-settings></auth-notification-settings>`)}
      ${section("api-keys", this.hideApiKeys || !project.config.allowUserApiKeys, msg("API keys"), html`<auth-api-key-settings></auth-api-key-settings>`)}
      ${section("danger-zone", this.hideDangerZone || !project.config.clientUserDeletionEnabled, msg("Danger zone"), html`<auth-delete-account></auth-delete-account>`)}`;
  }
}
