/**
 * `@latchkey/elements/team-list-settings`: defines `<auth-team-list-settings>`, and `<auth-app>` (every element
 * looks for one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the
 * main entry has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthTeamListSettingsElement } from "../elements/account/team-list-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthTeamListSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-team-list-settings": AuthTeamListSettingsElement });
