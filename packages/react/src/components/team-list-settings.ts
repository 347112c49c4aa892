import { AuthTeamListSettingsElement } from "@latchkey/elements/team-list-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-team-list-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthTeamListSettings = createComponent({
  react: React,
  tagName: "auth-team-list-settings",
  elementClass: AuthTeamListSettingsElement,
  displayName: "AuthTeamListSettings",
});
