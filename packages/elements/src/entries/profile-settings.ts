/**
 * `@latchkey/elements/profile-settings`: defines `<auth-profile-settings>`, and `<auth-app>` (every element looks
 * for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main
 * entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthProfileSettingsElement } from "../elements/account/profile-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthProfileSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-profile-settings": AuthProfileSettingsElement });
