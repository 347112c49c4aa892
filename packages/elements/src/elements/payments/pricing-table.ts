import type { ClientPaymentActions, CustomerOptions, Offer, OfferList, Price } from "@latchkey/core";
import { paymentsOf } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError } from "../../base/errors.js";
import { msg, str } from "../../base/i18n.js";
import { formatMoney, freeTrial, PaymentsElement, perInterval, priceAmount } from "./payments-common.js";

const pricingCss = `
:where(.lk-plans){list-style:none;margin:0 0 var(--lk-s);padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,14rem),1fr));gap:var(--lk-s)}
:where(.lk-plan){display:flex;flex-direction:column;gap:.5rem;padding:var(--lk-s);background:var(--lk-bg);border:1px solid var(--lk-border);border-radius:var(--lk-r);min-width:0}
:where(.lk-plan[aria-current=true]){border:2px solid var(--lk-primary)}
:where(.lk-plan h3){font-size:1.1em;margin:0;overflow-wrap:anywhere}
:where(.lk-plan p){margin:0}
:where(.lk-plan ul){list-style:none;margin:0;padding:0;display:grid;gap:.25rem}
:where(.lk-amount){font-size:1.4em;font-weight:700}
:where(.lk-plan button){margin-top:auto}
:where(.lk-badges){display:flex;flex-wrap:wrap;gap:.25rem}
:where(.lk-test-mode){margin:0 0 var(--lk-s)}
:where(.lk-test-mode .lk-badge){border-color:var(--lk-primary);font-weight:600}
:where(.lk-badge){display:inline-block;font-size:.8em;padding:0 .5rem;border-radius:999px;border:1px solid var(--lk-border);background:var(--lk-subtle)}
`;

/**
 * A group's offers (the plans of `payments.groups.<id>` in the project's config) with their prices and intervals,
 * the signed-in user's current plan marked, and a button that opens the hosted purchase page for an offer. The
 * group's `include-by-default` offer shows as free and is the current plan while no other is held. Prices are the
 * config's decimal amounts, shown in the page's language. On a server without a Stripe key (test mode) a note
 * above the plans says that purchases are not charged.
 *
 * @element auth-pricing-table
 * @fires auth-checkout-created - A purchase link was made for an offer, just before the page goes to it; `detail` is `{ offerId, url }`. Cancelable: `preventDefault()` keeps the page (e.g. to open the link in a dialog of your own).
 * @attr {string} group - The group whose offers to show (e.g. `plans`); all offers the customer may buy when absent.
 * @attr {string} team-id - Shows and buys a team's plans (the signed-in user's team) instead of the user's.
 * @attr {string} currency - Which currency's amounts to show when a price has several (`USD` by default).
 * @attr {boolean} new-tab - Opens the purchase page in a new tab instead of this one.
 * @attr {string} return-url - Where the purchase page's done link leads (default: this page); under a trusted domain of the project.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart plan - Each offer's card; the current one has `aria-current="true"`.
 * @csspart test-mode - The note shown in test mode (the server has no Stripe key: nothing is charged).
 * @csspart checkout-button - The button that opens the purchase page.
 */
export class AuthPricingTableElement extends PaymentsElement<OfferList> {
  static override css = pricingCss;
  static override properties = {
    ...PaymentsElement.properties,
    group: {},
    currency: {},
    newTab: { type: Boolean, attribute: "new-tab" },
    returnUrl: { attribute: "return-url" },
    busy: { state: true },
    error: { state: true },
  };

  declare group: string | undefined;
  declare currency: string;
  declare newTab: boolean;
  declare returnUrl: string | undefined;
  /** The offer whose purchase link is being made. */
  declare busy: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.currency = "USD";
    this.newTab = false;
    this.busy = null;
    this.error = null;
  }

  protected select(payments: ClientPaymentActions, customer: CustomerOptions) {
    const options = { ...customer, ...(this.group ? { groupId: this.group } : {}) };
    return { key: JSON.stringify(options), store: payments.offersStore(options) };
  }

  private async checkout(offer: Offer): Promise<void> {
    if (!this.app || this.busy) return;
    this.busy = offer.id;
    this.error = null;
    try {
      const url = await paymentsOf(this.app).createCheckoutUrl({ offerId: offer.id, returnUrl: this.returnUrl ?? window.location.href, ...this.customer() });
      const event = new CustomEvent("auth-checkout-created", { detail: { offerId: offer.id, url }, bubbles: true, composed: true, cancelable: true });
      if (!this.dispatchEvent(event)) return;
      if (this.newTab) window.open(url, "_blank", "noopener");
      else window.location.assign(url);
    } catch (error) {
      this.error = describeError(error).message;
    } finally {
      this.busy = null;
    }
  }

  protected override render(): TemplateResult {
    const state = this.state;
    return html`<div class="lk-section" part="base">
      ${state.status === "loading"
        ? html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`
        : state.status === "error"
          ? html`<p class="lk-alert" role="alert">${describeError(state.error).message}</p>`
          : state.value === null
            ? html`<p class="lk-note">${msg("Sign in to choose a plan.")}</p>`
            : this.plans(state.value)}
      ${this.error ? html`<p class="lk-alert" role="alert">${this.error}</p>` : nothing}
    </div>`;
  }

  private plans({ offers, testMode }: OfferList): TemplateResult {
    // Said before the plans, so nobody takes a test purchase for a real one (or a real one for a test).
    const note = testMode
      ? html`<p class="lk-test-mode" part="test-mode"><span class="lk-badge">${msg("Test mode")}</span> ${msg("Purchases are not charged.")}</p>`
      : nothing;
    if (offers.length === 0) return html`${note}<p class="lk-note">${msg("No plans are available.")}</p>`;
    // The free (default) plan first, then the others in the order the server sends (by id).
    const sorted = [...offers.filter((o) => o.prices === "include-by-default"), ...offers.filter((o) => o.prices !== "include-by-default")];
    const names = new Map(offers.map((o) => [o.id, o.displayName]));
    const owned = new Set(offers.filter((o) => o.owned).map((o) => o.id));
    return html`${note}<ul class="lk-plans" role="list">${sorted.map((offer) => this.plan(offer, names, owned))}</ul>`;
  }

  private plan(offer: Offer, names: Map<string, string>, owned: Set<string>): TemplateResult {
    const current = offer.owned && !offer.isAddOnTo;
    const bases = offer.isAddOnTo || [];
    const needsBase = bases.length > 0 && !bases.some((id) => owned.has(id));
    const canBuy = offer.prices !== "include-by-default" && (!offer.owned || offer.stackable) && !needsBase;
    const titleId = `${this.uid}-${offer.id}`;
    return html`<li class="lk-plan" part="plan" aria-current=${current ? "true" : "false"} aria-labelledby=${titleId}>
      <h3 id=${titleId}>${offer.displayName}</h3>
      ${current || offer.isAddOnTo || offer.owned
        ? html`<p class="lk-badges">
            ${current ? html`<span class="lk-badge">${msg("Current plan")}</span>` : nothing}
            ${offer.isAddOnTo ? html`<span class="lk-badge">${msg("Add-on")}</span>` : nothing}
            ${offer.owned && offer.isAddOnTo ? html`<span class="lk-badge">${msg("Active")}</span>` : nothing}
          </p>`
        : nothing}
      ${offer.prices === "include-by-default" ? html`<p><span class="lk-amount">${msg("Free")}</span></p>` : html`<ul>${offer.prices.map((price) => this.price(price))}</ul>`}
      ${needsBase ? html`<p class="lk-note">${msg(str`Available with ${bases.map((id) => names.get(id) ?? id).join(", ")}`)}</p>` : nothing}
      ${canBuy
        ? html`<button type="button" class="lk-primary" part="checkout-button" ?disabled=${this.busy !== null} aria-busy=${this.busy === offer.id ? "true" : "false"}
            @click=${() => this.checkout(offer)}>${offer.owned ? msg("Buy more") : msg(str`Choose ${offer.displayName}`)}</button>`
        : nothing}
    </li>`;
  }

  private price(price: Price): TemplateResult {
    const shown = priceAmount(price, this.currency);
    if (!shown) return html``;
    return html`<li>
      <span class="lk-amount">${formatMoney(shown.amount, shown.currency)}</span>
      ${price.interval ? html`<span class="lk-note">${perInterval(price.interval)}</span>` : html`<span class="lk-note">${msg("once")}</span>`}
      ${price.freeTrial ? html`<br /><span class="lk-note">${freeTrial(price.freeTrial)}</span>` : nothing}
    </li>`;
  }
}
