import { AuthEmailVerificationElement } from "@latchkey/elements/email-verification";
import * as React from "react";
import { createComponent, emailVerified } from "./wrap.js";

/** `<auth-email-verification>`: verifies the address of a verification link on load. */
export const AuthEmailVerification = createComponent({
  react: React,
  tagName: "auth-email-verification",
  elementClass: AuthEmailVerificationElement,
  events: { onAuthEmailVerified: emailVerified },
  displayName: "AuthEmailVerification",
});
