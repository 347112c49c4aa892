import { AuthSignInElement } from "@latchkey/elements/sign-in";
import * as React from "react";
import { createComponent, signedIn } from "./wrap.js";

/** `<auth-sign-in>`: the sign-in methods the project enables. `onAuthSignedIn` gets `{ userId, isNewUser }`. */
export const AuthSignIn = createComponent({
  react: React,
  tagName: "auth-sign-in",
  elementClass: AuthSignInElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthSignIn",
});
