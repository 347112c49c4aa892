import { AuthOAuthCallbackElement } from "@latchkey/elements/oauth-callback";
import * as React from "react";
import { createComponent, signedIn } from "./wrap.js";

/** `<auth-oauth-callback>`: finishes a provider sign-in (or link) on the page the provider sent the user back to. */
export const AuthOAuthCallback = createComponent({
  react: React,
  tagName: "auth-oauth-callback",
  elementClass: AuthOAuthCallbackElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthOAuthCallback",
});
