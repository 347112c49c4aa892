/**
 * `@latchkey/elements/mfa`: defines `<auth-mfa>`, and `<auth-app>` (every element looks for one around it); no other
 * element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthMfaElement } from "../elements/mfa.js";

export * from "../page-api.js";
export { AuthAppElement, AuthMfaElement };

defineElements({ "auth-app": AuthAppElement, "auth-mfa": AuthMfaElement });
