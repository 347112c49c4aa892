/**
 * `@latchkey/elements/team-switcher`: defines `<auth-team-switcher>`, and `<auth-app>` (every element looks for one
 * around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has
 * it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthTeamSwitcherElement } from "../elements/teams/team-switcher.js";

export * from "../page-api.js";
export { AuthAppElement, AuthTeamSwitcherElement };

defineElements({ "auth-app": AuthAppElement, "auth-team-switcher": AuthTeamSwitcherElement });
