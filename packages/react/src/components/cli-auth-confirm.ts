import { AuthCliAuthConfirmElement } from "@latchkey/elements/cli-auth-confirm";
import type { EventName } from "@lit/react";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-cli-auth-confirm>`: the page a command-line tool's login opens in the browser. */
export const AuthCliAuthConfirm = createComponent({
  react: React,
  tagName: "auth-cli-auth-confirm",
  elementClass: AuthCliAuthConfirmElement,
  events: { onAuthCliLoginConfirmed: "auth-cli-login-confirmed" as EventName<CustomEvent<unknown>> },
  displayName: "AuthCliAuthConfirm",
});
