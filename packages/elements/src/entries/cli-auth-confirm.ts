/**
 * `@latchkey/elements/cli-auth-confirm`: defines `<auth-cli-auth-confirm>`, and `<auth-app>` (every element looks
 * for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main
 * entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthCliAuthConfirmElement } from "../elements/cli-auth-confirm.js";

export * from "../page-api.js";
export { AuthAppElement, AuthCliAuthConfirmElement };

defineElements({ "auth-app": AuthAppElement, "auth-cli-auth-confirm": AuthCliAuthConfirmElement });
