import { KnownErrors } from "@latchkey/protocol/errors";
import {
  customerOffersParams,
  customerOffersQuery,
  customerOffersResponse,
  paymentItemParams,
  paymentItemRead,
  updateItemQuantityBody,
  updateItemQuantityQuery,
  updateItemQuantityResponse,
  type CustomerOffer,
} from "@latchkey/protocol/schemas";
import { renderProjectConfig, type ConfigObject, type OfferConfig, type ProjectConfig } from "../config/project-config.js";
import { ANY_ACCESS, defineRoute, type Route } from "../http/route.js";
import type { RequestAuth } from "../services/deps.js";
import { assertClientMayActFor, assertCustomerExists, type Customer, type CustomerType } from "../services/payments-customers.js";
import { changeItemQuantity, itemQuantity, ownedOffers } from "../services/payments-ledger.js";
import { stripeConfigured } from "../services/stripe/stripe-client.js";

const TAGS = ["Payments"];
const CUSTOMER_ERRORS = [KnownErrors.UserNotFound, KnownErrors.TeamNotFound, KnownErrors.UserAuthenticationRequired];

const configOf = (auth: RequestAuth): ProjectConfig => renderProjectConfig(auth.project.config_override as ConfigObject);

/** User and team ids are UUIDs, matched whatever their case; a custom id is the app's own string, kept as sent. */
function customerOf(auth: RequestAuth, customerType: CustomerType, customerId: string): Customer {
  return { projectId: auth.project.id, customerType, customerId: customerType === "custom" ? customerId : customerId.toLowerCase() };
}

/** ITEM_NOT_FOUND, then ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH, in the reference's order. */
function itemConfigOf(config: ProjectConfig, itemId: string, customerType: CustomerType, customerId: string) {
  const item = Object.prototype.hasOwnProperty.call(config.payments.items, itemId) ? config.payments.items[itemId] : undefined;
  if (!item) throw new KnownErrors.ItemNotFound(itemId);
  if (item.customerType !== customerType) throw new KnownErrors.ItemCustomerTypeDoesNotMatch(itemId, customerId, item.customerType, customerType);
  return item;
}

function pricesForBuyers(offer: OfferConfig): CustomerOffer["prices"] {
  if (offer.prices === "include-by-default") return "include-by-default";
  const out: Exclude<CustomerOffer["prices"], string> = {};
  for (const [id, price] of Object.entries(offer.prices)) {
    if (price.serverOnly) continue;
    const { serverOnly: _serverOnly, freeTrial, ...rest } = price;
    out[id] = { ...rest, ...(freeTrial ? { free_trial: freeTrial } : {}) };
  }
  return out;
}

/**
 * Item balances and quantity changes (issue 32): `GET /payments/items/{customer_type}/{customer_id}/{item_id}`
 * (a client only for itself or its teams) and `POST …/update-quantity` (server), plus the offers a customer can
 * buy, for the pricing-table widget (a Latchkey addition). Both protocol versions use the same routes.
 */
export const paymentsItemsRoutes: Route[] = [
  defineRoute({
    method: "get",
    path: "/payments/items/:customer_type/:customer_id/:item_id",
    summary: "Read an item's quantity",
    description:
      "The item's quantity for a customer, computed from its grants, purchases, subscriptions and quantity changes. A client with a signed-in user may read only that user's items and those of its teams; in the 2.8.41 protocol a client request without a user reads any customer's (2.8.41's server SDK reads items that way), in 2.8.108 it gets USER_AUTHENTICATION_REQUIRED.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: paymentItemParams },
    response: { description: "The item and its quantity (negative after an allowed overdraw).", schema: paymentItemRead },
    errors: [KnownErrors.ItemNotFound, KnownErrors.ItemCustomerTypeDoesNotMatch, ...CUSTOMER_ERRORS],
    handler: async (c, { auth, params }) => {
      const db = c.get("deps").db;
      const config = configOf(auth);
      const item = itemConfigOf(config, params.item_id, params.customer_type, params.customer_id);
      const customer = customerOf(auth, params.customer_type, params.customer_id);
      // 2.8.41's server SDK reads items through a client request without a session (its getItem never sends the
      // secret key), as the reference of that version allowed: such a request reads any customer's items there.
      const serverSdkRead = auth.type === "client" && !auth.user && c.get("dialect") === "2.8.41";
      if (!serverSdkRead) await assertClientMayActFor(auth, customer, db, "Clients can only read the items of their own user or of teams they are a member of.");
      await assertCustomerExists(db, customer);
      return { id: params.item_id, display_name: item.displayName, quantity: await itemQuantity(db, customer, params.item_id, config) };
    },
  }),
  defineRoute({
    method: "post",
    path: "/payments/items/:customer_type/:customer_id/:item_id/update-quantity",
    summary: "Change an item's quantity",
    description:
      "Adds `delta` (negative to take) to the customer's quantity of the item, optionally expiring at `expires_at`. Unless `allow_negative=true`, a change that would leave the quantity below zero is refused; parallel changes of one customer's item are applied one after the other, so none overdraws.",
    tags: TAGS,
    access: ["server", "admin"],
    request: { params: paymentItemParams, query: updateItemQuantityQuery, body: updateItemQuantityBody },
    response: { description: "The change was recorded.", schema: updateItemQuantityResponse },
    errors: [KnownErrors.ItemNotFound, KnownErrors.ItemCustomerTypeDoesNotMatch, KnownErrors.UserNotFound, KnownErrors.TeamNotFound, KnownErrors.ItemQuantityInsufficientAmount],
    handler: async (c, { auth, params, query, body }) => {
      const db = c.get("deps").db;
      const config = configOf(auth);
      itemConfigOf(config, params.item_id, params.customer_type, params.customer_id);
      const customer = customerOf(auth, params.customer_type, params.customer_id);
      await assertCustomerExists(db, customer);
      await changeItemQuantity(db, customer, params.item_id, {
        delta: body.delta,
        expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at),
        description: body.description ?? null,
        allowNegative: query.allow_negative === "true",
      }, config);
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "get",
    path: "/payments/offers/:customer_type/:customer_id",
    summary: "List the offers a customer can buy",
    description:
      "Latchkey addition, for the pricing-table widget: the offers for the customer's type that are not server-only (optionally of one group), their prices that are not server-only, and whether the customer holds each now; `test_mode`: the server has no Stripe key, so purchases complete without payment. A client only for its own user or teams its user is a member of.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: customerOffersParams, query: customerOffersQuery },
    response: { description: "The offers, sorted by id (the stored config keeps no order of its own).", schema: customerOffersResponse },
    errors: CUSTOMER_ERRORS,
    handler: async (c, { auth, params, query }) => {
      const db = c.get("deps").db;
      const config = configOf(auth);
      const customer = customerOf(auth, params.customer_type, params.customer_id);
      await assertClientMayActFor(auth, customer, db, "Clients can only list the offers of their own user or of teams they are a member of.");
      await assertCustomerExists(db, customer);
      const owned = new Set((await ownedOffers(db, customer, config)).map((o) => o.offerId));
      const items: CustomerOffer[] = [];
      for (const [id, offer] of Object.entries(config.payments.offers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (offer.serverOnly || offer.customerType !== params.customer_type) continue;
        if (query.group_id !== undefined && offer.groupId !== query.group_id) continue;
        items.push({
          id,
          display_name: offer.displayName,
          customer_type: offer.customerType,
          group_id: offer.groupId ?? null,
          is_add_on_to: offer.isAddOnTo,
          stackable: offer.stackable === true,
          prices: pricesForBuyers(offer),
          owned: owned.has(id),
        });
      }
      return { items, test_mode: !stripeConfigured(c.get("deps")) };
    },
  }),
];
