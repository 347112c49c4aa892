/**
 * `@latchkey/elements/email-verification`: defines `<auth-email-verification>`, and `<auth-app>` (every element
 * looks for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the
 * main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthEmailVerificationElement } from "../elements/email-verification.js";

export * from "../page-api.js";
export { AuthAppElement, AuthEmailVerificationElement };

defineElements({ "auth-app": AuthAppElement, "auth-email-verification": AuthEmailVerificationElement });
