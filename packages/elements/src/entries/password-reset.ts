/**
 * `@latchkey/elements/password-reset`: defines `<auth-password-reset>`, and `<auth-app>` (every element looks for
 * one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry
 * has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthPasswordResetElement } from "../elements/password-reset.js";

export * from "../page-api.js";
export { AuthAppElement, AuthPasswordResetElement };

defineElements({ "auth-app": AuthAppElement, "auth-password-reset": AuthPasswordResetElement });
