/**
 * `@latchkey/elements/handler`: defines `<auth-handler>` and every element it may show (the sign-in flow, the pages
 * mails link to, account settings, team invitations): every element, as the main entry. Its other exports are the
 * page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { ACCOUNT_ELEMENTS } from "../account-elements.js";
import { defineElements } from "../base/define.js";
import { AuthHandlerElement } from "../elements/handler.js";
import { PAGE_ELEMENTS } from "../page-elements.js";

export * from "../page-api.js";
export { AuthHandlerElement };

defineElements({ ...PAGE_ELEMENTS, ...ACCOUNT_ELEMENTS });
