/**
 * `@latchkey/elements/oauth-callback`: defines `<auth-oauth-callback>`, and `<auth-app>` (every element looks for
 * one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry
 * has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthOAuthCallbackElement } from "../elements/oauth-callback.js";

export * from "../page-api.js";
export { AuthAppElement, AuthOAuthCallbackElement };

defineElements({ "auth-app": AuthAppElement, "auth-oauth-callback": AuthOAuthCallbackElement });
