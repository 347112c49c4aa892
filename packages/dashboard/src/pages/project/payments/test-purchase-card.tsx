import type { AdminApp } from "@latchkey/core";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { TextField } from "../../../components/text-field.js";
import type { PaymentsConfig, PriceConfig } from "./payments-config.js";
import { customerOptions, purchaseCodeOf, useRefreshPayments, type ChosenCustomer } from "./payments-queries.js";
import { CUSTOMER_TYPE_LABELS, formatAmounts, formatInterval, quantityProblem } from "./payments-rules.js";

/**
 * A purchase for the customer without payment, marked as test mode: a purchase link for the offer is made
 * (`create-purchase-url`, as the app would) and completed at once with the chosen price
 * (`POST /internal/payments/test-mode-purchase-session`), as the hosted page's test path does. For trying a
 * plan or a pack before Stripe is connected, or giving one to a customer by hand.
 */
export function TestPurchaseCard({ admin, projectId, customer, payments }: { admin: AdminApp; projectId: string; customer: ChosenCustomer; payments: PaymentsConfig }) {
  const id = useId();
  const refresh = useRefreshPayments(projectId);
  // Offers with prices (an include-by-default offer is held without buying it) for this type of customer.
  const offers = Object.entries(payments.offers).filter(([, offer]) => offer.customerType === customer.type && offer.prices !== "include-by-default");
  const [offerId, setOfferId] = useState(offers[0]?.[0] ?? "");
  const offer = payments.offers[offerId];
  const prices = offer && offer.prices !== "include-by-default" ? Object.entries(offer.prices) : [];
  const [priceId, setPriceId] = useState(prices[0]?.[0] ?? "");
  const [quantity, setQuantity] = useState("1");
  const [quantityError, setQuantityError] = useState<string | undefined>();
  const purchase = useMutation({
    mutationFn: async (chosen: { offerId: string; priceId: string; quantity: number }) => {
      const url = await admin.createCheckoutUrl({ offerId: chosen.offerId, ...customerOptions(customer) });
      const fullCode = purchaseCodeOf(url, projectId);
      if (!fullCode) throw new Error(`The purchase link ${url} holds no purchase code.`);
      await admin.testModePurchase({ fullCode, priceId: chosen.priceId, quantity: chosen.quantity });
    },
    onSettled: () => refresh(),
  });

  const chooseOffer = (next: string) => {
    setOfferId(next);
    const nextOffer = payments.offers[next];
    setPriceId(nextOffer && nextOffer.prices !== "include-by-default" ? (Object.keys(nextOffer.prices)[0] ?? "") : "");
    setQuantity("1");
  };

  const done = purchase.isSuccess ? purchase.variables : undefined;
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Test-mode purchase</h2>
      <p className="dashboard-muted">Buys an offer for this customer without payment. It is listed as test mode in the transactions.</p>
      {offers.length === 0 ? (
        <p>No offers with prices are sold to {CUSTOMER_TYPE_LABELS[customer.type].toLowerCase()} yet. Add one on the Items &amp; offers tab.</p>
      ) : (
        <form
          className="dashboard-form"
          aria-label="Test-mode purchase"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            purchase.reset();
            const stackable = offer?.stackable === true;
            const problem = stackable ? quantityProblem(quantity.trim(), { allowZero: false }) : undefined;
            setQuantityError(problem);
            if (problem || !priceId) return;
            purchase.mutate({ offerId, priceId, quantity: stackable ? Number(quantity.trim()) : 1 });
          }}
        >
          <div className="dashboard-field">
            <label htmlFor={`${id}-offer`}>Offer</label>
            <select id={`${id}-offer`} value={offerId} onChange={(event) => chooseOffer(event.target.value)}>
              {offers.map(([id, offer]) => (
                <option key={id} value={id}>
                  {offer.displayName || id} ({id})
                </option>
              ))}
            </select>
          </div>
          <div className="dashboard-field">
            <label htmlFor={`${id}-price`}>Price</label>
            <select id={`${id}-price`} value={priceId} onChange={(event) => setPriceId(event.target.value)}>
              {prices.map(([id, price]) => (
                <option key={id} value={id}>
                  {priceLabel(id, price)}
                </option>
              ))}
            </select>
          </div>
          {offer?.stackable ? (
            <TextField id={`${id}-quantity`} label="Quantity" inputMode="numeric" value={quantity} error={quantityError} onChange={setQuantity} />
          ) : null}
          <FailureAlert action="complete the test purchase" error={purchase.error} />
          <button type="submit" disabled={purchase.isPending}>
            {purchase.isPending ? "Purchasing…" : "Complete test purchase"}
          </button>
          <p role="status" className="dashboard-muted">
            {done ? `Test purchase of ${payments.offers[done.offerId]?.displayName ?? done.offerId} completed.` : ""}
          </p>
        </form>
      )}
    </section>
  );
}

/** "monthly: USD 9.99 every 1 month". */
const priceLabel = (id: string, price: PriceConfig) => `${id}: ${formatAmounts(price)}${price.interval ? ` every ${formatInterval(price.interval)}` : " once"}`;
