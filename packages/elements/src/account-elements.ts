/**
 * The account and team management elements: pages of their own that people open now and then, rather than
 * widgets every page shows. The drop-in bundles leave them out (they would be ~9 KB gzip of every visit) and
 * load this module, built to `latchkey-account.js`, when one of them is placed on the page
 * (account-elements-loader.ts). The package entry (index.ts) defines them with the others. The payment widgets
 * (<auth-pricing-table>, <auth-item-balance>) are here too: only pages that sell something show them.
 */
import { AuthAccountSettingsElement } from "./elements/account/account-settings.js";
import { AuthApiKeySettingsElement } from "./elements/account/api-key-settings.js";
import { AuthConnectedAccountsSettingsElement } from "./elements/account/connected-accounts-settings.js";
import { AuthDeleteAccountElement } from "./elements/account/delete-account.js";
import { AuthEmailSettingsElement } from "./elements/account/email-settings.js";
import { AuthMfaSettingsElement } from "./elements/account/mfa-settings.js";
import { AuthNotificationSettingsElement } from "./elements/account/notification-settings.js";
import { AuthPasskeySettingsElement } from "./elements/account/passkey-settings.js";
import { AuthPasswordSettingsElement } from "./elements/account/password-settings.js";
import { AuthProfileSettingsElement } from "./elements/account/profile-settings.js";
import { AuthSessionSettingsElement } from "./elements/account/session-settings.js";
import { AuthTeamListSettingsElement } from "./elements/account/team-list-settings.js";
import { AuthTeamInvitationElement } from "./elements/teams/team-invitation.js";
import { AuthTeamSettingsElement } from "./elements/teams/team-settings.js";
import { AuthItemBalanceElement } from "./elements/payments/item-balance.js";
import { AuthPricingTableElement } from "./elements/payments/pricing-table.js";
import type { AccountElementTag } from "./account-elements-loader.js";

export const ACCOUNT_ELEMENTS: Record<AccountElementTag, CustomElementConstructor> = {
  "auth-account-settings": AuthAccountSettingsElement,
  "auth-profile-settings": AuthProfileSettingsElement,
  "auth-email-settings": AuthEmailSettingsElement,
  "auth-password-settings": AuthPasswordSettingsElement,
  "auth-connected-accounts-settings": AuthConnectedAccountsSettingsElement,
  "auth-passkey-settings": AuthPasskeySettingsElement,
  "auth-mfa-settings": AuthMfaSettingsElement,
  "auth-session-settings": AuthSessionSettingsElement,
  "auth-team-list-settings": AuthTeamListSettingsElement,
  "auth-notification-settings": AuthNotificationSettingsElement,
  "auth-api-key-settings": AuthApiKeySettingsElement,
  "auth-delete-account": AuthDeleteAccountElement,
  "auth-team-settings": AuthTeamSettingsElement,
  "auth-team-invitation": AuthTeamInvitationElement,
  "auth-pricing-table": AuthPricingTableElement,
  "auth-item-balance": AuthItemBalanceElement,
};
