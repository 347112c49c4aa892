/**
 * `@latchkey/elements/api-key-settings`: defines `<auth-api-key-settings>`, and `<auth-app>` (every element looks
 * for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main
 * entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthApiKeySettingsElement } from "../elements/account/api-key-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthApiKeySettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-api-key-settings": AuthApiKeySettingsElement });
