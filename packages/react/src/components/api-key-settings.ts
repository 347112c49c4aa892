import { AuthApiKeySettingsElement } from "@latchkey/elements/api-key-settings";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-api-key-settings>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthApiKeySettings = createComponent({
  react: React,
  tagName: "auth-api-key-settings",
  elementClass: AuthApiKeySettingsElement,
  displayName: "AuthApiKeySettings",
});
