import type { OfferConfig } from "../../config/project-config.js";

/**
 * What a Stripe object's metadata says about the purchase (issue 32). The names are the reference's:
 * `offerId`, `offer` (the offer as JSON), `priceId`, `customerType`, `customerId`, and on one-time payment
 * intents `purchaseQuantity` and `purchaseKind: "ONE_TIME"`. Stripe caps a metadata value at 500 characters,
 * so an offer whose JSON is longer travels in `offer_0`, `offer_1`, … (up to 40 keys) and is joined again.
 */

const VALUE_LIMIT = 500;
const MAX_PARTS = 40;

export function offerMetadata(offerId: string | null, offer: OfferConfig): Record<string, string> {
  const json = JSON.stringify(offer);
  const base: Record<string, string> = offerId === null ? {} : { offerId };
  if (json.length <= VALUE_LIMIT) return { ...base, offer: json };
  const parts = Math.ceil(json.length / VALUE_LIMIT);
  // A config offer is found again by its id; only an inline offer that big cannot be sent.
  if (parts > MAX_PARTS) {
    if (offerId !== null) return base;
    throw new Error("The inline offer is too large to send to Stripe");
  }
  for (let i = 0; i < parts; i++) base[`offer_${i}`] = json.slice(i * VALUE_LIMIT, (i + 1) * VALUE_LIMIT);
  return base;
}

/** The offer snapshot written by offerMetadata, or undefined when the metadata has none (or it is not JSON). */
export function offerFromMetadata(metadata: Record<string, string> | null | undefined): Record<string, unknown> | undefined {
  if (!metadata) return undefined;
  let json = metadata.offer;
  if (json === undefined && metadata.offer_0 !== undefined) {
    json = "";
    for (let i = 0; metadata[`offer_${i}`] !== undefined; i++) json += metadata[`offer_${i}`];
  }
  if (json === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
