import type Stripe from "stripe";
import type { Db } from "../../db/connect.js";
import type { PaymentCustomerType } from "../../db/schema-payments.js";
import { offerFromSnapshot } from "../payments-offers.js";
import { recordOneTimePurchase } from "../payments-purchases.js";
import { offerFromMetadata } from "./stripe-metadata.js";

const CUSTOMER_TYPES = new Set<PaymentCustomerType>(["user", "team", "custom"]);

/**
 * Records the one-time purchase a succeeded payment intent paid for, from the metadata startStripePurchase
 * wrote. Once per payment intent: recordOneTimePurchase is keyed by it, so every later delivery is a no-op.
 */
export async function recordStripeOneTimePurchase(db: Db, projectId: string, intent: Stripe.PaymentIntent): Promise<void> {
  const metadata = intent.metadata ?? {};
  const customerType = metadata.customerType as PaymentCustomerType;
  const quantity = Number(metadata.purchaseQuantity ?? "1");
  // Not written by startStripePurchase (the project's own use of its account): nothing of ours to record.
  if (!CUSTOMER_TYPES.has(customerType) || !metadata.customerId || !Number.isInteger(quantity) || quantity < 1) return;
  await recordOneTimePurchase(db, {
    customer: { projectId, customerType, customerId: metadata.customerId },
    offerId: metadata.offerId || null,
    offer: offerFromSnapshot(offerFromMetadata(metadata) ?? {}),
    priceId: metadata.priceId || null,
    quantity,
    stripePaymentIntentId: intent.id,
    creationSource: "PURCHASE_PAGE",
  });
}
