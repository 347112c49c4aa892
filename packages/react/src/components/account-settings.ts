import { AuthAccountSettingsElement } from "@latchkey/elements/account-settings";
import * as React from "react";
import { createComponent, passwordChanged, accountDeleted } from "./wrap.js";

/** `<auth-account-settings>`: every account section (profile, emails, password, sessions, teams, notifications, API keys, danger zone). */
export const AuthAccountSettings = createComponent({
  react: React,
  tagName: "auth-account-settings",
  elementClass: AuthAccountSettingsElement,
  events: { onAuthPasswordChanged: passwordChanged, onAuthAccountDeleted: accountDeleted },
  displayName: "AuthAccountSettings",
});
