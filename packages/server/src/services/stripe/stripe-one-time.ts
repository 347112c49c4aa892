import type Stripe from "stripe";
import type { Db } from "../../db/connect.js";
import type { PaymentCustomerType } from "../../db/schema-payments.js";
import { offerFromMetadata } from "./stripe-metadata.js";

const CUSTOMER_TYPES = new Set<PaymentCustomerType>(["user", "team", "custom"]);

/**
 * Records the one-time purchase a succeeded payment intent paid for, from the metadata startStripePurchase
 * wrote. Once per payment intent: the unique (project, payment intent) key makes every later delivery a no-op.
 */
export async function recordStripeOneTimePurchase(db: Db, projectId: string, intent: Stripe.PaymentIntent): Promise<void> {
  const metadata = intent.metadata ?? {};
  const customerType = metadata.customerType as PaymentCustomerType;
  const quantity = Number(metadata.purchaseQuantity ?? "1");
  if (!CUSTOMER_TYPES.has(customerType) || !metadata.customerId || !Number.isInteger(quantity) || quantity < 1) return;
  const offerId = metadata.offerId || null;
  const offer = offerFromMetadata(metadata) ?? {};
  await db
    .insertInto("payment_one_time_purchases")
    .values({
      project_id: projectId,
      customer_type: customerType,
      customer_id: metadata.customerId,
      offer_id: offerId,
      offer: JSON.stringify(offer),
      price_id: metadata.priceId || null,
      quantity,
      stripe_payment_intent_id: intent.id,
      creation_source: "PURCHASE_PAGE",
    })
    .onConflict((oc) => oc.columns(["project_id", "stripe_payment_intent_id"]).doNothing())
    .execute();
}
