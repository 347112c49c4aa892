import { AuthMfaSettingsElement } from "@latchkey/elements/mfa-settings";
import type { EventName } from "@lit/react";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-mfa-settings>`: turning two-factor authentication on (QR code, code checked first) and off. */
export const AuthMfaSettings = createComponent({
  react: React,
  tagName: "auth-mfa-settings",
  elementClass: AuthMfaSettingsElement,
  events: { onAuthMfaChanged: "auth-mfa-changed" as EventName<CustomEvent<{ enabled: boolean }>> },
  displayName: "AuthMfaSettings",
});
