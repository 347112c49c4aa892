/**
 * `@latchkey/elements/forgot-password`: defines `<auth-forgot-password>`, and `<auth-app>` (every element looks for
 * one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry
 * has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthForgotPasswordElement } from "../elements/forgot-password.js";

export * from "../page-api.js";
export { AuthAppElement, AuthForgotPasswordElement };

defineElements({ "auth-app": AuthAppElement, "auth-forgot-password": AuthForgotPasswordElement });
