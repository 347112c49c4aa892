import { AuthMfaElement } from "@latchkey/elements/mfa";
import * as React from "react";
import { createComponent, signedIn } from "./wrap.js";

/** `<auth-mfa>`: the second sign-in step for users with two-factor authentication (the mfa handler page). */
export const AuthMfa = createComponent({
  react: React,
  tagName: "auth-mfa",
  elementClass: AuthMfaElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthMfa",
});
