/**
 * `@latchkey/elements/password-settings`: defines `<auth-password-settings>`, and `<auth-app>` (every element looks
 * for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main
 * entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthPasswordSettingsElement } from "../elements/account/password-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthPasswordSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-password-settings": AuthPasswordSettingsElement });
