/**
 * @latchkey/elements: drop-in sign-in, sign-up, user button and handler pages as web components (Lit),
 * rendering into the light DOM so password managers see their forms. Importing this module defines the
 * elements; `init()` configures the page's default app.
 *
 * @example
 * ```html
 * <script src="https://auth.example.com/static/v1/latchkey.iife.js"></script>
 * <script>Latchkey.init({ projectId: "…", publishableClientKey: "…", baseUrl: "https://auth.example.com" });</script>
 * <auth-sign-in></auth-sign-in>
 * ```
 */
import { AuthAppElement } from "./elements/app.js";
import { ACCOUNT_ELEMENTS } from "./account-elements.js";
import { PAGE_ELEMENTS, defineElements } from "./page-elements.js";
import { AuthMfaElement } from "./elements/mfa.js";
import { AuthMfaSettingsElement } from "./elements/account/mfa-settings.js";
import { AuthPasskeySettingsElement } from "./elements/account/passkey-settings.js";
import { AuthConnectedAccountsSettingsElement } from "./elements/account/connected-accounts-settings.js";
import { AuthCliAuthConfirmElement } from "./elements/cli-auth-confirm.js";
import { AuthAccountSettingsElement } from "./elements/account/account-settings.js";
import { AuthProfileSettingsElement } from "./elements/account/profile-settings.js";
import { AuthEmailSettingsElement } from "./elements/account/email-settings.js";
import { AuthPasswordSettingsElement } from "./elements/account/password-settings.js";
import { AuthSessionSettingsElement } from "./elements/account/session-settings.js";
import { AuthTeamListSettingsElement } from "./elements/account/team-list-settings.js";
import { AuthNotificationSettingsElement } from "./elements/account/notification-settings.js";
import { AuthApiKeySettingsElement } from "./elements/account/api-key-settings.js";
import { AuthDeleteAccountElement } from "./elements/account/delete-account.js";
import { AuthTeamSwitcherElement } from "./elements/teams/team-switcher.js";
import { AuthTeamSettingsElement } from "./elements/teams/team-settings.js";
import { AuthTeamInvitationElement } from "./elements/teams/team-invitation.js";
import { AuthEmailVerificationElement } from "./elements/email-verification.js";
import { AuthForgotPasswordElement } from "./elements/forgot-password.js";
import { AuthHandlerElement } from "./elements/handler.js";
import { AuthMagicLinkCallbackElement } from "./elements/magic-link-callback.js";
import { AuthOAuthCallbackElement } from "./elements/oauth-callback.js";
import { AuthPasswordResetElement } from "./elements/password-reset.js";
import { AuthSignInElement } from "./elements/sign-in.js";
import { AuthSignUpElement } from "./elements/sign-up.js";
import { AuthUserButtonElement } from "./elements/user-button.js";
import { AuthPricingTableElement } from "./elements/payments/pricing-table.js";
import { AuthItemBalanceElement } from "./elements/payments/item-balance.js";

export { setDefaultApp, getDefaultApp } from "./base/app-registry.js";
export { LOCALES, getLocale, setLocale, setLocalesUrl, type Locale } from "./base/i18n.js";
export { MFA_ATTEMPT_CODE_KEY } from "./elements/sign-in.js";
export { init, initHostedPage, type InitOptions } from "./init-full.js";
export {
  AuthCliAuthConfirmElement,
  AuthMfaSettingsElement,
  AuthPasskeySettingsElement,
  AuthConnectedAccountsSettingsElement,
  AuthMfaElement,
  AuthAccountSettingsElement,
  AuthApiKeySettingsElement,
  AuthDeleteAccountElement,
  AuthEmailSettingsElement,
  AuthNotificationSettingsElement,
  AuthPasswordSettingsElement,
  AuthProfileSettingsElement,
  AuthSessionSettingsElement,
  AuthTeamInvitationElement,
  AuthTeamListSettingsElement,
  AuthTeamSettingsElement,
  AuthTeamSwitcherElement,
  AuthAppElement,
  AuthEmailVerificationElement,
  AuthForgotPasswordElement,
  AuthHandlerElement,
  AuthMagicLinkCallbackElement,
  AuthOAuthCallbackElement,
  AuthPasswordResetElement,
  AuthSignInElement,
  AuthSignUpElement,
  AuthUserButtonElement,
  AuthPricingTableElement,
  AuthItemBalanceElement,
};

defineElements({ ...PAGE_ELEMENTS, ...ACCOUNT_ELEMENTS });

declare global {
  interface HTMLElementTagNameMap {
    "auth-app": AuthAppElement;
    "auth-sign-in": AuthSignInElement;
    "auth-sign-up": AuthSignUpElement;
    "auth-forgot-password": AuthForgotPasswordElement;
    "auth-password-reset": AuthPasswordResetElement;
    "auth-email-verification": AuthEmailVerificationElement;
    "auth-magic-link-callback": AuthMagicLinkCallbackElement;
    "auth-oauth-callback": AuthOAuthCallbackElement;
    "auth-user-button": AuthUserButtonElement;
    "auth-handler": AuthHandlerElement;
    "auth-mfa": AuthMfaElement;
    "auth-mfa-settings": AuthMfaSettingsElement;
    "auth-passkey-settings": AuthPasskeySettingsElement;
    "auth-connected-accounts-settings": AuthConnectedAccountsSettingsElement;
    "auth-cli-auth-confirm": AuthCliAuthConfirmElement;
    "auth-account-settings": AuthAccountSettingsElement;
    "auth-profile-settings": AuthProfileSettingsElement;
    "auth-email-settings": AuthEmailSettingsElement;
    "auth-password-settings": AuthPasswordSettingsElement;
    "auth-session-settings": AuthSessionSettingsElement;
    "auth-team-list-settings": AuthTeamListSettingsElement;
    "auth-notification-settings": AuthNotificationSettingsElement;
    "auth-api-key-settings": AuthApiKeySettingsElement;
    "auth-delete-account": AuthDeleteAccountElement;
    "auth-team-switcher": AuthTeamSwitcherElement;
    "auth-team-settings": AuthTeamSettingsElement;
    "auth-team-invitation": AuthTeamInvitationElement;
    "auth-pricing-table": AuthPricingTableElement;
    "auth-item-balance": AuthItemBalanceElement;
  }
}
