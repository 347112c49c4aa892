/**
 * `@latchkey/elements/sign-in`: defines `<auth-sign-in>` and `<auth-mfa>`, which it shows in place of its form when
 * a sign-in on hosted pages needs a second factor, and `<auth-app>` (every element looks for one around it); no
 * other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthSignInElement } from "../elements/sign-in.js";
import { AuthMfaElement } from "../elements/mfa.js";

export * from "../page-api.js";
export { AuthAppElement, AuthSignInElement, AuthMfaElement };

defineElements({ "auth-app": AuthAppElement, "auth-sign-in": AuthSignInElement, "auth-mfa": AuthMfaElement });
