/**
 * `@latchkey/elements/email-settings`: defines `<auth-email-settings>`, and `<auth-app>` (every element looks for
 * one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry
 * has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthEmailSettingsElement } from "../elements/account/email-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthEmailSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-email-settings": AuthEmailSettingsElement });
