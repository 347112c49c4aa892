/**
 * `@latchkey/elements/account-settings`: defines `<auth-account-settings>` and its sections
 * (`<auth-profile-settings>`, …), which it shows, and `<auth-app>` (every element looks for one around it); no other
 * element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthAccountSettingsElement } from "../elements/account/account-settings.js";
import { AuthProfileSettingsElement } from "../elements/account/profile-settings.js";
import { AuthEmailSettingsElement } from "../elements/account/email-settings.js";
import { AuthPasswordSettingsElement } from "../elements/account/password-settings.js";
import { AuthConnectedAccountsSettingsElement } from "../elements/account/connected-accounts-settings.js";
import { AuthPasskeySettingsElement } from "../elements/account/passkey-settings.js";
import { AuthMfaSettingsElement } from "../elements/account/mfa-settings.js";
import { AuthSessionSettingsElement } from "../elements/account/session-settings.js";
import { AuthTeamListSettingsElement } from "../elements/account/team-list-settings.js";
import { AuthNotificationSettingsElement } from "../elements/account/notification-settings.js";
import { AuthApiKeySettingsElement } from "../elements/account/api-key-settings.js";
import { AuthDeleteAccountElement } from "../elements/account/delete-account.js";

export * from "../page-api.js";
export {
  AuthAppElement,
  AuthAccountSettingsElement,
  AuthProfileSettingsElement,
  AuthEmailSettingsElement,
  AuthPasswordSettingsElement,
  AuthConnectedAccountsSettingsElement,
  AuthPasskeySettingsElement,
  AuthMfaSettingsElement,
  AuthSessionSettingsElement,
  AuthTeamListSettingsElement,
  AuthNotificationSettingsElement,
  AuthApiKeySettingsElement,
  AuthDeleteAccountElement,
};

defineElements({
  "auth-app": AuthAppElement,
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
});
