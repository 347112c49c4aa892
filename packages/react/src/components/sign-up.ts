import { AuthSignUpElement } from "@latchkey/elements/sign-up";
import * as React from "react";
import { createComponent, signedUp } from "./wrap.js";

/** `<auth-sign-up>`: email and password sign-up. `onAuthSignedUp` gets `{ userId, isNewUser }`. */
export const AuthSignUp = createComponent({
  react: React,
  tagName: "auth-sign-up",
  elementClass: AuthSignUpElement,
  events: { onAuthSignedUp: signedUp },
  displayName: "AuthSignUp",
});
