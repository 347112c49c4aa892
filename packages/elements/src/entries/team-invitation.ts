/**
 * `@latchkey/elements/team-invitation`: defines `<auth-team-invitation>`, and `<auth-app>` (every element looks for
 * one around it); no other element. Its other exports are the page's API (`init`, `setLocale`, …), as the main entry
 * has it.
 */
import { defineElements } from "../base/define.js";
import { AuthAppElement } from "../elements/app.js";
import { AuthTeamInvitationElement } from "../elements/teams/team-invitation.js";

export * from "../page-api.js";
export { AuthAppElement, AuthTeamInvitationElement };

defineElements({ "auth-app": AuthAppElement, "auth-team-invitation": AuthTeamInvitationElement });
