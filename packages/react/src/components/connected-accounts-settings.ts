import { AuthConnectedAccountsSettingsElement } from "@latchkey/elements/connected-accounts-settings";
import type { EventName } from "@lit/react";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-connected-accounts-settings>`: the provider accounts linked to the user: sign-in use, unlink, link another. */
export const AuthConnectedAccountsSettings = createComponent({
  react: React,
  tagName: "auth-connected-accounts-settings",
  elementClass: AuthConnectedAccountsSettingsElement,
  events: { onAuthOauthUnlinked: "auth-oauth-unlinked" as EventName<CustomEvent<{ id: string; providerId: string }>> },
  displayName: "AuthConnectedAccountsSettings",
});
