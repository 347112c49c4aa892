/**
 * `@latchkey/elements/team-settings`: defines `<auth-team-settings>`, and `<auth-app>` (every element looks for one
 * around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry has
 * it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthTeamSettingsElement } from "../elements/teams/team-settings.js";

export * from "../page-api.js";
export { AuthAppElement, AuthTeamSettingsElement };

defineElements({ "auth-app": AuthAppElement, "auth-team-settings": AuthTeamSettingsElement });
