import { AuthHandlerElement } from "@latchkey/elements/handler";
import * as React from "react";
import { createComponent, signedIn, signedUp, signedOut } from "./wrap.js";

/** `<auth-handler>`: routes the pages under the app's handler path (`/handler/sign-in`, …) to the right element. */
export const AuthHandler = createComponent({
  react: React,
  tagName: "auth-handler",
  elementClass: AuthHandlerElement,
  events: { onAuthSignedIn: signedIn, onAuthSignedUp: signedUp, onAuthSignedOut: signedOut },
  displayName: "AuthHandler",
});
