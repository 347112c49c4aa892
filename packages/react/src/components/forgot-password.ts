import { AuthForgotPasswordElement } from "@latchkey/elements/forgot-password";
import * as React from "react";
import { createComponent, resetEmailSent } from "./wrap.js";

/** `<auth-forgot-password>`: mails a reset link. `onAuthResetEmailSent` gets `{ email }`. */
export const AuthForgotPassword = createComponent({
  react: React,
  tagName: "auth-forgot-password",
  elementClass: AuthForgotPasswordElement,
  events: { onAuthResetEmailSent: resetEmailSent },
  displayName: "AuthForgotPassword",
});
