import { AuthTeamInvitationElement } from "@latchkey/elements/team-invitation";
import * as React from "react";
import { createComponent, teamInvitationAccepted } from "./wrap.js";

/** `<auth-team-invitation>`: the page a team invitation mail links to. */
export const AuthTeamInvitation = createComponent({
  react: React,
  tagName: "auth-team-invitation",
  elementClass: AuthTeamInvitationElement,
  events: { onAuthTeamInvitationAccepted: teamInvitationAccepted },
  displayName: "AuthTeamInvitation",
});
