/**
 * `@latchkey/elements/user-button`: defines `<auth-user-button>`, and `<auth-app>` (every element looks for one
 * around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has
 * it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthUserButtonElement } from "../elements/user-button.js";

export * from "../page-api.js";
export { AuthAppElement, AuthUserButtonElement };

defineElements({ "auth-app": AuthAppElement, "auth-user-button": AuthUserButtonElement });
