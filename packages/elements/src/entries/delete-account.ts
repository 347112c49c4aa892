/**
 * `@latchkey/elements/delete-account`: defines `<auth-delete-account>`, and `<auth-app>` (every element looks for
 * one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry
 * has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthDeleteAccountElement } from "../elements/account/delete-account.js";

export * from "../page-api.js";
export { AuthAppElement, AuthDeleteAccountElement };

defineElements({ "auth-app": AuthAppElement, "auth-delete-account": AuthDeleteAccountElement });
