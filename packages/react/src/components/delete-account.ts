import { AuthDeleteAccountElement } from "@latchkey/elements/delete-account";
import * as React from "react";
import { createComponent, accountDeleted } from "./wrap.js";

/** `<auth-delete-account>`: one account section on its own (see `AuthAccountSettings`). */
export const AuthDeleteAccount = createComponent({
  react: React,
  tagName: "auth-delete-account",
  elementClass: AuthDeleteAccountElement,
  events: { onAuthAccountDeleted: accountDeleted },
  displayName: "AuthDeleteAccount",
});
