import { AuthPasswordResetElement } from "@latchkey/elements/password-reset";
import * as React from "react";
import { createComponent, passwordReset } from "./wrap.js";

/** `<auth-password-reset>`: sets a new password with the code of a reset link (default: the page URL's `code`). */
export const AuthPasswordReset = createComponent({
  react: React,
  tagName: "auth-password-reset",
  elementClass: AuthPasswordResetElement,
  events: { onAuthPasswordReset: passwordReset },
  displayName: "AuthPasswordReset",
});
