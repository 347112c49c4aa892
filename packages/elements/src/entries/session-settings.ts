/**
 * `@latchkey/elements/session-settings`: defines `<auth-session-settings>`, and `<auth-app>` (every element looks
 * for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main
 * entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthSessionSettingsElement } from "../elements/account/session-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthSessionSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-session-settings": AuthSessionSettingsElement });
