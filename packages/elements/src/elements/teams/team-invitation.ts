import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";

/**
 * TODO(issue 7): being written.
 *
 * @element auth-team-invitation
 */
export class AuthTeamInvitationElement extends AuthElement {
  protected override render(): TemplateResult {
    return html``;
  }
}
