/**
 * `@latchkey/elements/connected-accounts-settings`: defines `<auth-connected-accounts-settings>`, and `<auth-app>`
 * (every element looks for one around it); no other element. Its other exports are the page's API (`init`,
 * `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthConnectedAccountsSettingsElement } from "../elements/account/connected-accounts-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthConnectedAccountsSettingsElement };

defineElements({
  "auth-app": AuthAppElement,
  "auth-connected-accounts-settings": AuthConnectedAccountsSettingsElement,
});
