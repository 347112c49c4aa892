import { AuthNotificationSettingsElement } from "@latchkey/elements/notification-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-notification-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthNotificationSettings = createComponent({
  react: React,
  tagName: "auth-notification-settings",
  elementClass: AuthNotificationSettingsElement,
  displayName: "AuthNotificationSettings",
});
