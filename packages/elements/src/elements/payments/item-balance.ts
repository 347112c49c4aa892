import type { ClientPaymentActions, CustomerOptions, Item } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError } from "../../base/errors.js";
import { getLocale, msg } from "../../base/i18n.js";
import { PaymentsElement } from "./payments-common.js";

const balanceCss = `
:where(auth-item-balance.lk){display:inline-block}
:where(.lk-balance){display:inline-flex;flex-wrap:wrap;align-items:baseline;gap:.35em;margin:0}
:where(.lk-quantity){font-weight:700;font-variant-numeric:tabular-nums}
`;

/**
 * How many of an item (`payments.items.<id>` in the project's config: credits, seats…) the signed-in user, or one
 * of their teams, holds now. It loads again when the page becomes visible or gets focus (the person comes back
 * from the purchase page), after a change the app made, and on `paymentsOf(app).refreshPayments()`. A negative
 * balance (after a forced decrease) shows as 0.
 *
 * @element auth-item-balance
 * @attr {string} item - The item's id (e.g. `credits`).
 * @attr {string} team-id - Shows a team's balance (a team of the signed-in user) instead of the user's.
 * @attr {boolean} no-label - Shows the number alone, without the item's name.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The line.
 * @csspart quantity - The number.
 */
export class AuthItemBalanceElement extends PaymentsElement<Item> {
  static override css = balanceCss;
  static override properties = { ...PaymentsElement.properties, item: {}, noLabel: { type: Boolean, attribute: "no-label" } };

  declare item: string | undefined;
  declare noLabel: boolean;

  constructor() {
    super();
    this.noLabel = false;
  }

  protected select(payments: ClientPaymentActions, customer: CustomerOptions) {
    if (!this.item) return undefined;
    const options = { ...customer, itemId: this.item };
    return { key: JSON.stringify(options), store: payments.itemStore(options) };
  }

  protected override render(): TemplateResult {
    const state = this.state;
    if (!this.item) return html``;
    if (state.status === "loading") return html`<span class="lk-note" part="base" role="status" aria-busy="true">${msg("Loading…")}</span>`;
    if (state.status === "error") return html`<span class="lk-error" part="base" role="alert">${describeError(state.error).message}</span>`;
    if (state.value === null) return html``;
    const item = state.value;
    // role=status: the number changes while the person looks (after a purchase) and screen readers should hear it.
    return html`<p class="lk-balance" part="base" role="status">
      <span class=${this.noLabel ? "lk-sr" : nothing}>${item.displayName}</span>
      <span class="lk-quantity" part="quantity">${new Intl.NumberFormat(getLocale()).format(item.nonNegativeQuantity)}</span>
    </p>`;
  }
}
