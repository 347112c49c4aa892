import { AuthPasswordSettingsElement } from "@latchkey/elements/password-settings";
import * as React from "react";
import { createComponent, passwordChanged } from "./wrap.js";

/** `<auth-password-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthPasswordSettings = createComponent({
  react: React,
  tagName: "auth-password-settings",
  elementClass: AuthPasswordSettingsElement,
  events: { onAuthPasswordChanged: passwordChanged },
  displayName: "AuthPasswordSettings",
});
