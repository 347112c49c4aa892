import { AuthProfileSettingsElement } from "@latchkey/elements/profile-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-profile-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthProfileSettings = createComponent({
  react: React,
  tagName: "auth-profile-settings",
  elementClass: AuthProfileSettingsElement,
  displayName: "AuthProfileSettings",
});
