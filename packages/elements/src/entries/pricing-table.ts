/**
 * `@latchkey/elements/pricing-table`: defines `<auth-pricing-table>`, and `<auth-app>` (every element looks for one around it); no
 * other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthPricingTableElement } from "../elements/payments/pricing-table.js";

export * from "../page-api.js";
export { AuthAppElement, AuthPricingTableElement };

defineElements({ "auth-app": AuthAppElement, "auth-pricing-table": AuthPricingTableElement });
