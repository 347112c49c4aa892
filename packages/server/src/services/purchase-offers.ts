import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { PAYMENT_CURRENCIES, type InlineOffer, type InlineProduct } from "@latchkey/protocol/schemas";
import type { DayInterval, OfferConfig, OfferPriceConfig, ProjectConfig } from "../config/project-config.js";
import type { Db } from "../db/connect.js";
import type { AccessType } from "./deps.js";
import { ownedOffers, type Customer, type OwnedOffer } from "./payments-ledger.js";

/**
 * Which offer a purchase is for, and whether this customer may buy it (issue 32): the reference's checks and
 * texts, in its order. Where the reference answers a plain 400 (no known error), so do we.
 */

const plain400 = (message: string) => new HTTPException(400, { message });

/** The reference's conversion of an inline offer: server-only, one price set, items never repeating unless said. */
export function offerFromInline(inline: InlineOffer | InlineProduct): OfferConfig {
  return {
    displayName: inline.display_name,
    customerType: inline.customer_type,
    ...(inline.free_trial ? { freeTrial: inline.free_trial as DayInterval } : {}),
    serverOnly: true,
    // 2.8.108's inline product may be stackable; 2.8.41's inline offer never is.
    stackable: "stackable" in inline ? inline.stackable : false,
    isAddOnTo: false,
    prices: Object.fromEntries(
      Object.entries(inline.prices).map(([id, price]) => {
        const amounts = Object.fromEntries(PAYMENT_CURRENCIES.flatMap((c) => (price[c] !== undefined ? [[c, price[c]]] : [])));
        const converted: OfferPriceConfig = {
          ...amounts,
          ...(price.interval ? { interval: price.interval as DayInterval } : {}),
          ...(price.free_trial ? { freeTrial: price.free_trial as DayInterval } : {}),
          serverOnly: true,
        };
        return [id, converted];
      }),
    ),
    includedItems: Object.fromEntries(
      Object.entries(inline.included_items).map(([id, item]) => [
        id,
        { quantity: item.quantity ?? 0, repeat: (item.repeat ?? "never") as DayInterval | "never", expires: item.expires ?? "never" },
      ]),
    ),
  };
}

/** `offer_id` or an inline offer, never both or neither; clients only config offers that are not server-only. */
export function offerForPurchase(
  config: ProjectConfig,
  accessType: AccessType,
  offerId: string | undefined,
  inline: InlineOffer | InlineProduct | undefined,
  /** The request's word for offers: 2.8.108 sends `product_id` and `product_inline`, and is answered in its terms. */
  named: "offer" | "product" = "offer",
): { offerId: string | null; offer: OfferConfig } {
  const [id, inlined] = [`${named}_id`, `${named}_inline`];
  if (offerId !== undefined && inline !== undefined) throw plain400(`Cannot specify both ${id} and ${inlined}!`);
  if (inline !== undefined && accessType === "client") {
    throw plain400(`Cannot specify ${inlined} when calling from client! Please call with a server API key, or use the ${id} parameter.`);
  }
  if (offerId === undefined && inline === undefined) throw plain400(`Must specify either ${id} or ${inlined}!`);
  if (inline !== undefined) return { offerId: null, offer: offerFromInline(inline) };
  const offer = Object.hasOwn(config.payments.offers, offerId!) ? config.payments.offers[offerId!] : undefined;
  // A client is not told that a server-only offer exists.
  if (!offer || (offer.serverOnly && accessType === "client")) throw new KnownErrors.OfferDoesNotExist(offerId!, accessType);
  return { offerId: offerId!, offer };
}

/**
 * The prices a purchase page may offer: a config offer's prices that are not server-only; every price of an
 * inline offer (a server made it for this buyer, and the reference marks all its prices server-only).
 */
export function purchasablePrices(offerId: string | null, offer: OfferConfig): Record<string, OfferPriceConfig> {
  if (offer.prices === "include-by-default") return {};
  return Object.fromEntries(Object.entries(offer.prices).filter(([, price]) => offerId === null || !price.serverOnly));
}

/** A price as the wire shows it: amounts as decimal strings, `interval` and `free_trial` when set. */
export function wirePrice(price: OfferPriceConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const currency of PAYMENT_CURRENCIES) if (price[currency] !== undefined) out[currency] = price[currency];
  if (price.interval) out.interval = price.interval;
  if (price.freeTrial) out.free_trial = price.freeTrial;
  return out;
}

export interface PurchaseStanding {
  alreadyBoughtNonStackable: boolean;
  /** Whether the offer is an add-on whose base offer the customer does not hold. */
  missingBaseOffer: boolean;
  /** Subscriptions in the offer's group that a new subscription replaces (and that forbid a one-time purchase). */
  conflicting: OwnedOffer[];
}

/** What the customer already holds that bears on buying this offer (the reference's purchase-session checks). */
export async function purchaseStanding(db: Db, customer: Customer, offerId: string | null, offer: OfferConfig, config: ProjectConfig): Promise<PurchaseStanding> {
  const owned = await ownedOffers(db, customer, config);
  const alreadyBoughtNonStackable = offerId !== null && offer.stackable !== true && owned.some((o) => o.offerId === offerId);
  const baseOfferIds = offer.isAddOnTo ? Object.keys(offer.isAddOnTo) : [];
  const missingBaseOffer = offer.isAddOnTo !== false && !owned.some((o) => o.offerId !== null && baseOfferIds.includes(o.offerId));
  const conflicting = offer.groupId
    ? owned.filter(
        (o) =>
          o.kind === "subscription" &&
          o.subscriptionId !== undefined &&
          o.offerId !== null &&
          o.offerId !== offerId &&
          o.groupId === offer.groupId &&
          o.offer.prices !== "include-by-default" &&
          !baseOfferIds.includes(o.offerId),
      )
    : [];
  return { alreadyBoughtNonStackable, missingBaseOffer, conflicting };
}

/**
 * Refuses a purchase the way the reference does: unknown price, quantity above 1 of a non-stackable offer,
 * an offer bought already, an add-on without its base offer, a one-time price while a subscription of the
 * group is running. Returns the chosen price.
 */
export function assertPurchasable(
  prices: Record<string, OfferPriceConfig>,
  offer: OfferConfig,
  priceId: string,
  quantity: number,
  standing: PurchaseStanding,
): OfferPriceConfig {
  const price = Object.hasOwn(prices, priceId) ? prices[priceId] : undefined;
  if (!price) throw plain400("Price not found on offer associated with this purchase code");
  if (quantity !== 1 && offer.stackable !== true) throw plain400("This offer is not stackable; quantity must be 1");
  if (standing.alreadyBoughtNonStackable) throw plain400("Customer already has purchased this offer; this offer is not stackable");
  if (standing.missingBaseOffer) throw plain400("This offer is an add-on to an offer that the customer does not have");
  if (standing.conflicting.length > 0 && !price.interval) {
    throw plain400("Customer already has a subscription in this group; one-time purchases are not allowed");
  }
  return price;
}
