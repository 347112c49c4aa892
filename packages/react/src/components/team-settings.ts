import { AuthTeamSettingsElement } from "@latchkey/elements/team-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-team-settings team-id>`: name, image, members, invitations — each action only with its permission. */
export const AuthTeamSettings = createComponent({
  react: React,
  tagName: "auth-team-settings",
  elementClass: AuthTeamSettingsElement,
  displayName: "AuthTeamSettings",
});
