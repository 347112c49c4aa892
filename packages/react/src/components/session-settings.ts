import { AuthSessionSettingsElement } from "@latchkey/elements/session-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-session-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthSessionSettings = createComponent({
  react: React,
  tagName: "auth-session-settings",
  elementClass: AuthSessionSettingsElement,
  displayName: "AuthSessionSettings",
});
