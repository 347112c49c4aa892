/**
 * `@latchkey/elements/notification-settings`: defines `<auth-notification-settings>`, and `<auth-app>` (every
 * element looks for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …),
 * as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthNotificationSettingsElement } from "../elements/account/notification-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthNotificationSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-notification-settings": AuthNotificationSettingsElement });
