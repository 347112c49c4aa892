import { AuthItemBalanceElement } from "@latchkey/elements/item-balance";
import * as React from "react";
import { createComponent } from "./wrap.js";

/** `<auth-item-balance>`: how many of an item (credits, seats…) the signed-in user or a team holds. */
export const AuthItemBalance = createComponent({
  react: React,
  tagName: "auth-item-balance",
  elementClass: AuthItemBalanceElement,
  displayName: "AuthItemBalance",
});
