import { AuthEmailSettingsElement } from "@latchkey/elements/email-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-email-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthEmailSettings = createComponent({
  react: React,
  tagName: "auth-email-settings",
  elementClass: AuthEmailSettingsElement,
  displayName: "AuthEmailSettings",
});
