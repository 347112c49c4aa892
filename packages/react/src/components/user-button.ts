import { AuthUserButtonElement } from "@latchkey/elements/user-button";
import * as React from "react";
import { createComponent, signedOut } from "./wrap.js";

/** `<auth-user-button>`: avatar, name and a menu with account settings and sign-out; a sign-in link when signed out. */
export const AuthUserButton = createComponent({
  react: React,
  tagName: "auth-user-button",
  elementClass: AuthUserButtonElement,
  events: { onAuthSignedOut: signedOut },
  displayName: "AuthUserButton",
});
