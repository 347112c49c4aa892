import { AuthPasskeySettingsElement } from "@latchkey/elements/passkey-settings";
import type { EventName } from "@lit/react";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-passkey-settings>`: adding a passkey and turning passkey sign-in off. */
export const AuthPasskeySettings = createComponent({
  react: React,
  tagName: "auth-passkey-settings",
  elementClass: AuthPasskeySettingsElement,
  events: { onAuthPasskeyAdded: "auth-passkey-added" as EventName<CustomEvent<unknown>> },
  displayName: "AuthPasskeySettings",
});
