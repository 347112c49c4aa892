/**
 * `@latchkey/elements/app`: defines `<auth-app>`, which gives the elements inside it their app, and no other
 * element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";

export * from "../page-api.js";
export { AuthAppElement };

defineElements({ "auth-app": AuthAppElement });
