import { HOSTED_PAGE_CSS, escapeHtml } from "../http/page-html.js";
import type { PriceView } from "./format.js";

/**
 * The purchase page's and return page's HTML (issue 32), in the hosted handler pages' look: the project's name
 * on top, one narrow column, the system's colours (light and dark). Everything the page says is in the HTML
 * the server sends, so it reads without the script; the script only pays.
 */

const PAGE_CSS = `${HOSTED_PAGE_CSS}h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; }
.note { padding: 0.75rem; border-radius: 0.5rem; border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); margin: 0 0 1rem; }
.test-mode { border-color: #b45309; background: color-mix(in srgb, #f59e0b 15%, Canvas); }
fieldset { border: 0; padding: 0; margin: 0 0 1rem; min-width: 0; }
legend { font-weight: 600; margin-bottom: 0.5rem; padding: 0; }
.price { display: flex; gap: 0.75rem; align-items: center; padding: 0.75rem; margin-bottom: 0.5rem; border-radius: 0.5rem;
  border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); cursor: pointer; }
.price:has(input:checked) { border-color: AccentColor; outline: 1px solid AccentColor; }
.price:has(input:disabled) { opacity: 0.6; cursor: not-allowed; }
.price input { width: 1.25rem; height: 1.25rem; margin: 0; flex: none; }
.amount { font-weight: 600; }
.detail { display: block; font-size: 0.875rem; opacity: 0.8; }
.quantity label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.quantity input { font: inherit; padding: 0.5rem; width: 6rem; border-radius: 0.375rem; border: 1px solid color-mix(in srgb, CanvasText 40%, transparent); }
#total { font-weight: 600; min-height: 1.5em; }
#payment-element:not(:empty) { margin: 1rem 0; }
button, .button { font: inherit; display: block; box-sizing: border-box; width: 100%; text-align: center; padding: 0.75rem 1rem; border-radius: 0.5rem;
  border: 0; background: AccentColor; color: AccentColorText; cursor: pointer; text-decoration: none; font-weight: 600; }
button:disabled { opacity: 0.6; cursor: not-allowed; }
:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
#error { color: #b91c1c; }
@media (prefers-color-scheme: dark) { #error { color: #fca5a5; } }
`;

export function pageDocument(options: { title: string; projectName?: string; lang: string; body: string; head?: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<style>${PAGE_CSS}</style>
${options.head ?? ""}
</head>
<body>
${options.projectName ? `<header><p class="project">${escapeHtml(options.projectName)}</p></header>` : ""}
<main>
${options.body}
</main>
</body>
</html>`;
}

export interface OfferPageModel {
  offerName: string;
  prices: PriceView[];
  stackable: boolean;
  testMode: boolean;
  alreadyBought: boolean;
  conflicting: string[];
  /** Why the page cannot take a payment (no publishable key on a Stripe server); undefined when it can. */
  cannotPay?: string;
}

/** The offer, its prices, quantity when stackable, what stands in the way, and the pay button. */
export function offerPageBody(model: OfferPageModel): string {
  const notes: string[] = [];
  if (model.testMode) {
    notes.push(`<p class="note test-mode" role="note"><strong>Test mode.</strong> No payment is taken: this server has no Stripe key, so the purchase is recorded as a test purchase.</p>`);
  }
  if (model.alreadyBought) notes.push(`<p class="note" role="note">You already own ${escapeHtml(model.offerName)}; it can be bought only once.</p>`);
  if (model.conflicting.length > 0) {
    notes.push(
      `<p class="note" role="note">You subscribe to ${escapeHtml(model.conflicting.join(", "))} now. A subscription bought here replaces it; one-time prices cannot be bought while it runs.</p>`,
    );
  }
  if (model.prices.length === 0) notes.push(`<p class="note" role="note">This offer has no price that can be bought here.</p>`);
  if (model.cannotPay) notes.push(`<p class="note" role="note">${escapeHtml(model.cannotPay)}</p>`);

  const blocked = model.alreadyBought || model.prices.length === 0 || model.cannotPay !== undefined;
  const firstOpen = model.prices.find((p) => p.recurring || model.conflicting.length === 0);
  const priceRows = model.prices
    .map((price) => {
      const disabled = !price.recurring && model.conflicting.length > 0;
      const detail = [price.cadence, price.trial].filter(Boolean).join(" · ");
      return `<label class="price"><input type="radio" name="price" value="${escapeHtml(price.id)}"${price === firstOpen ? " checked" : ""}${disabled ? " disabled" : ""} required>
<span><span class="amount">${escapeHtml(price.amount)}</span><span class="detail">${escapeHtml(detail)}</span></span></label>`;
    })
    .join("\n");
  const quantity = model.stackable
    ? `<div class="quantity"><label for="quantity">Quantity</label><input id="quantity" name="quantity" type="number" inputmode="numeric" min="1" step="1" value="1" required></div>`
    : "";
  const payLabel = model.testMode ? "Complete test purchase" : "Continue to payment";
  const form = blocked
    ? ""
    : `<form id="purchase-form" novalidate>
<div id="choices">
<fieldset><legend>Price</legend>
${priceRows}
</fieldset>
${quantity}
</div>
<p id="total" aria-live="polite"></p>
<div id="payment-element"></div>
<button type="submit" id="pay">${payLabel}</button>
<p id="status" role="status"></p>
<p id="error" role="alert"></p>
</form>`;
  return `<h1>${escapeHtml(model.offerName)}</h1>
${notes.join("\n")}
${form}`;
}

export function messageBody(title: string, message: string, link?: { href: string; text: string }): string {
  return `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${link ? `<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ""}`;
}
