import { AuthPricingTableElement } from "@latchkey/elements/pricing-table";
import * as React from "react";
import { checkoutCreated, createComponent } from "./wrap.js";

/**
 * `<auth-pricing-table>`: a group's offers with prices, the current plan marked, and checkout buttons.
 * `onAuthCheckoutCreated` gets `{ offerId, url }` before the page goes to the purchase page (`preventDefault()` stays).
 */
export const AuthPricingTable = createComponent({
  react: React,
  tagName: "auth-pricing-table",
  elementClass: AuthPricingTableElement,
  events: { onAuthCheckoutCreated: checkoutCreated },
  displayName: "AuthPricingTable",
});
