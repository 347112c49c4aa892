/**
 * `@latchkey/elements/sign-up`: defines `<auth-sign-up>`, and `<auth-app>` (every element looks for one around it);
 * no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthSignUpElement } from "../elements/sign-up.js";

export * from "../page-api.js";
export { AuthAppElement, AuthSignUpElement };

defineElements({ "auth-app": AuthAppElement, "auth-sign-up": AuthSignUpElement });
