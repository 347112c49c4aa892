/**
 * `@latchkey/elements/mfa-settings`: defines `<auth-mfa-settings>`, and `<auth-app>` (every element looks for one
 * around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has
 * it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthMfaSettingsElement } from "../elements/account/mfa-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthMfaSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-mfa-settings": AuthMfaSettingsElement });
