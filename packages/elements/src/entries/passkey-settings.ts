/**
 * `@latchkey/elements/passkey-settings`: defines `<auth-passkey-settings>`, and `<auth-app>` (every element looks
 * for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main
 * entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthPasskeySettingsElement } from "../elements/account/passkey-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthPasskeySettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-passkey-settings": AuthPasskeySettingsElement });
