/**
 * The purchase page's script (issue 32), inlined with the page's nonce. It reads the page's data (a JSON
 * script element), keeps the total up to date (BigInt minor units × quantity, formatted from the decimal
 * string: no float), and pays:
 * - test mode (server without a Stripe key): "Complete test purchase" → complete-test-mode-purchase → the
 *   return page;
 * - Stripe: "Continue to payment" → purchase-session (uses the code up) → Stripe.js through @stripe/stripe-js's
 *   loader served by this server (loadStripe with the project's connected account) → the Payment Element;
 *   then "Pay" → confirmPayment, which comes back to the return page. A subscription whose first invoice
 *   needs no payment (a free trial) has an empty client secret and goes straight to the return page.
 * Errors are read out (role=alert); progress is announced (role=status).
 */
export const PURCHASE_PAGE_SCRIPT = String.raw`(() => {
  const data = JSON.parse(document.getElementById("purchase-data").textContent);
  const form = document.getElementById("purchase-form");
  if (!form) return;
  const button = document.getElementById("pay");
  const status = document.getElementById("status");
  const alertBox = document.getElementById("error");
  const quantity = document.getElementById("quantity");
  const total = document.getElementById("total");
  const choices = document.getElementById("choices");
  let stripe = null;
  let elements = null;

  function decimalOf(minor, decimals) {
    if (decimals === 0) return minor;
    const digits = minor.padStart(decimals + 1, "0");
    return digits.slice(0, -decimals) + "." + digits.slice(-decimals);
  }
  function selectedPrice() {
    const input = form.querySelector('input[name="price"]:checked');
    return input ? data.prices[input.value] : undefined;
  }
  function count() {
    if (!quantity) return 1;
    const n = Number(quantity.value);
    return Number.isInteger(n) && n >= 1 ? n : 0;
  }
  function updateTotal() {
    const price = selectedPrice();
    const n = count();
    if (!total || !price || n < 1) { if (total) total.textContent = ""; return; }
    const minor = (BigInt(price.minorUnits) * BigInt(n)).toString();
    const amount = new Intl.NumberFormat(data.locale, { style: "currency", currency: price.currency }).format(decimalOf(minor, price.decimals));
    total.textContent = "Total: " + amount + (price.recurring ? " " + price.cadence : "");
  }
  form.addEventListener("input", updateTotal);
  updateTotal();

  async function post(path, body) {
    const response = await fetch(data.api + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await response.text();
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    if (!response.ok) throw new Error((json && json.error) || text || "The server answered " + response.status + ".");
    return json;
  }
  function choice() {
    const input = form.querySelector('input[name="price"]:checked');
    return { full_code: data.fullCode, price_id: input.value, quantity: count() };
  }
  function say(text) { status.textContent = text; }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    alertBox.textContent = "";
    button.disabled = true;
    form.setAttribute("aria-busy", "true");
    try {
      if (data.testMode) {
        say("Completing the test purchase…");
        await post("/payments/purchases/complete-test-mode-purchase", choice());
        location.assign(data.returnPage);
        return;
      }
      if (!elements) {
        say("Preparing the payment…");
        const session = await post("/payments/purchases/purchase-session", choice());
        if (session.client_secret === "") { location.assign(data.returnPage); return; }
        // The code is used up now: the choice is final.
        for (const input of choices.querySelectorAll("input")) input.disabled = true;
        const { loadStripe } = await import(data.stripeLoader);
        stripe = await loadStripe(data.stripePublishableKey, { stripeAccount: data.stripeAccountId });
        if (!stripe) throw new Error("Stripe could not be loaded.");
        elements = stripe.elements({ clientSecret: session.client_secret });
        elements.create("payment").mount("#payment-element");
        button.textContent = "Pay";
        say("Enter your payment details, then choose Pay.");
        return;
      }
      say("Paying…");
      const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: new URL(data.returnPage, location.href).href } });
      if (result.error) throw new Error(result.error.message || "The payment did not go through.");
    } catch (error) {
      say("");
      alertBox.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      button.disabled = false;
      form.removeAttribute("aria-busy");
    }
  });
})();`;
