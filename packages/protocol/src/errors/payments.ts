/** Errors about payments: items, offers, customers and the Stripe account. */
import { defineKnownError } from "./known-error.js";
import type { AccessType } from "./project-auth.js";

export type CustomerType = "user" | "team" | "custom";

function misconfiguredCustomerType(subject: "item" | "offer", configuredType: CustomerType | undefined, actualType: CustomerType): string {
  return configuredType
    ? `The ${subject} is configured to only be available for ${configuredType} customers, but the customer is a ${actualType}.`
    : `The ${subject} is missing a customer type field. Please make sure it is set up correctly in your project configuration.`;
}

export const ItemNotFound = defineKnownError("ITEM_NOT_FOUND", {
  status: 404,
  build: (itemId: string) => ({ message: `Item with ID "${itemId}" not found.`, details: { item_id: itemId } }),
  fromDetails: (d) => [d?.item_id],
});

export const ItemCustomerTypeDoesNotMatch = defineKnownError("ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", {
  status: 400,
  build: (itemId: string, customerId: string, itemCustomerType: CustomerType | undefined, actualCustomerType: CustomerType) => ({
    message: `The ${actualCustomerType} with ID ${JSON.stringify(customerId)} is not a valid customer for the item with ID ${JSON.stringify(itemId)}. ${misconfiguredCustomerType("item", itemCustomerType, actualCustomerType)}`,
    details: {
      item_id: itemId,
      customer_id: customerId,
      item_customer_type: itemCustomerType ?? null,
      actual_customer_type: actualCustomerType,
    },
  }),
  fromDetails: (d) => [d?.item_id, d?.customer_id, d?.item_customer_type ?? undefined, d?.actual_customer_type],
});

export const CustomerDoesNotExist = defineKnownError("CUSTOMER_DOES_NOT_EXIST", {
  status: 400,
  build: (customerId: string) => ({
    message: `Customer with ID ${JSON.stringify(customerId)} does not exist.`,
    details: { customer_id: customerId },
  }),
  fromDetails: (d) => [d?.customer_id],
});

export const OfferDoesNotExist = defineKnownError("OFFER_DOES_NOT_EXIST", {
  status: 400,
  build: (offerId: string, accessType: AccessType) => ({
    // A client is not told whether a server-only offer exists.
    message: `Offer with ID ${JSON.stringify(offerId)} does not exist${accessType === "client" ? " or you don't have permissions to access it." : "."}`,
    details: { offer_id: offerId, access_type: accessType },
  }),
  fromDetails: (d) => [d?.offer_id, d?.access_type],
});

export const OfferCustomerTypeDoesNotMatch = defineKnownError("OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH", {
  status: 400,
  build: (offerId: string | undefined, customerId: string, offerCustomerType: CustomerType | undefined, actualCustomerType: CustomerType) => ({
    message: `The ${actualCustomerType} with ID ${JSON.stringify(customerId)} is not a valid customer for the inline offer that has been passed in. ${misconfiguredCustomerType("offer", offerCustomerType, actualCustomerType)}`,
    details: {
      offer_id: offerId ?? null,
      customer_id: customerId,
      offer_customer_type: offerCustomerType ?? null,
      actual_customer_type: actualCustomerType,
    },
  }),
  fromDetails: (d) => [d?.offer_id ?? undefined, d?.customer_id, d?.offer_customer_type ?? undefined, d?.actual_customer_type],
});

export const ItemQuantityInsufficientAmount = defineKnownError("ITEM_QUANTITY_INSUFFICIENT_AMOUNT", {
  status: 400,
  build: (itemId: string, customerId: string, quantity: number) => ({
    message: `The item with ID ${JSON.stringify(itemId)} has an insufficient quantity for the customer with ID ${JSON.stringify(customerId)}. An attempt was made to charge ${quantity} credits.`,
    details: { item_id: itemId, customer_id: customerId, quantity },
  }),
  fromDetails: (d) => [d?.item_id, d?.customer_id, d?.quantity],
});

export const StripeAccountInfoNotFound = defineKnownError("STRIPE_ACCOUNT_INFO_NOT_FOUND", {
  status: 404,
  build: () => ({ message: "Stripe account information not found. Please make sure the user has onboarded with Stripe." }),
  fromDetails: () => [],
});

// 2.8.108 calls offers "products": the same errors under its names (sent to that version instead of the two above).
export const ProductDoesNotExist = defineKnownError("PRODUCT_DOES_NOT_EXIST", {
  status: 400,
  build: (productId: string, context: "server_only" | "item_exists" | null) => ({
    message: `Product with ID ${JSON.stringify(productId)} ${
      context === "server_only"
        ? "is marked as server-only and cannot be accessed client side."
        : context === "item_exists"
          ? "does not exist, but an item with this ID exists."
          : "does not exist."
    }`,
    details: { product_id: productId, context },
  }),
  fromDetails: (d) => [d?.product_id, d?.context ?? null],
});

export const ProductCustomerTypeDoesNotMatch = defineKnownError("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", {
  status: 400,
  build: (productId: string | undefined, customerId: string, productCustomerType: CustomerType | undefined, actualCustomerType: CustomerType) => ({
    message: `The ${actualCustomerType} with ID ${JSON.stringify(customerId)} is not a valid customer for the inline product that has been passed in. ${
      productCustomerType
        ? `The product is configured to only be available for ${productCustomerType} customers, but the customer is a ${actualCustomerType}.`
        : "The product is missing a customer type field. Please make sure it is set up correctly in your project configuration."
    }`,
    details: {
      product_id: productId ?? null,
      customer_id: customerId,
      product_customer_type: productCustomerType ?? null,
      actual_customer_type: actualCustomerType,
    },
  }),
  fromDetails: (d) => [d?.product_id ?? undefined, d?.customer_id, d?.product_customer_type ?? undefined, d?.actual_customer_type],
});
