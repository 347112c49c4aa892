import { AuthMagicLinkCallbackElement } from "@latchkey/elements/magic-link-callback";
import * as React from "react";
import { createComponent, signedIn } from "./wrap.js";

/** `<auth-magic-link-callback>`: signs in with the code of a magic link on load. */
export const AuthMagicLinkCallback = createComponent({
  react: React,
  tagName: "auth-magic-link-callback",
  elementClass: AuthMagicLinkCallbackElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthMagicLinkCallback",
});
