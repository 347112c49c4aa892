import { AuthTeamSwitcherElement } from "@latchkey/elements/team-switcher";
import * as React from "react";
import { createComponent, teamChanged } from "./wrap.js";

/** `<auth-team-switcher>`: the selected team and a listbox to switch. `onAuthTeamChanged` gets `{ teamId }`. */
export const AuthTeamSwitcher = createComponent({
  react: React,
  tagName: "auth-team-switcher",
  elementClass: AuthTeamSwitcherElement,
  events: { onAuthTeamChanged: teamChanged },
  displayName: "AuthTeamSwitcher",
});
