/**
 * `@latchkey/elements/item-balance`: defines `<auth-item-balance>`, and `<auth-app>` (every element looks for one around it); no
 * other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthItemBalanceElement } from "../elements/payments/item-balance.js";

export * from "../page-api.js";
export { AuthAppElement, AuthItemBalanceElement };

defineElements({ "auth-app": AuthAppElement, "auth-item-balance": AuthItemBalanceElement });
