/**
 * `@latchkey/elements/magic-link-callback`: defines `<auth-magic-link-callback>`, and `<auth-app>` (every element
 * looks for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the
 * main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthMagicLinkCallbackElement } from "../elements/magic-link-callback.js";

export * from "../page-api.js";
export { AuthAppElement, AuthMagicLinkCallbackElement };

defineElements({ "auth-app": AuthAppElement, "auth-magic-link-callback": AuthMagicLinkCallbackElement });
