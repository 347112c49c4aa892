import type { OfferConfig, OfferPriceConfig, ProjectConfig } from "../config/project-config.js";

/** The offers a purchase refers to, as the ledger reads them (issue 32). */

export type PaymentsConfig = ProjectConfig["payments"];

/** Callers hold either the whole rendered config or its `payments` part; both are accepted. */
export type PaymentsConfigSource = ProjectConfig | PaymentsConfig;

export function paymentsOf(config: PaymentsConfigSource): PaymentsConfig {
  return "payments" in config ? config.payments : config;
}

type Included = OfferConfig["includedItems"][string];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function included(raw: unknown): Record<string, Included> {
  const out: Record<string, Included> = {};
  if (!isRecord(raw)) return out;
  for (const [itemId, entry] of Object.entries(raw)) {
    const e = isRecord(entry) ? entry : {};
    out[itemId] = {
      quantity: typeof e.quantity === "number" ? e.quantity : 0,
      repeat: (e.repeat as Included["repeat"] | undefined) ?? "never",
      expires: (e.expires as Included["expires"] | undefined) ?? "when-repeated",
    };
  }
  return out;
}

/**
 * A stored offer snapshot (payment rows' `offer` column) as an offer config. Snapshots of config offers are
 * camelCase; an inline offer may have been stored in its wire form (`display_name`, `included_items`, …), which
 * is read too, so the ledger does not depend on which form the purchase path chose.
 */
export function offerFromSnapshot(snapshot: unknown): OfferConfig {
  const s = isRecord(snapshot) ? snapshot : {};
  if ("display_name" in s || "customer_type" in s || "included_items" in s) {
    const prices: Record<string, OfferPriceConfig> = {};
    if (isRecord(s.prices)) {
      for (const [id, p] of Object.entries(s.prices)) {
        if (!isRecord(p)) continue;
        const { free_trial, server_only, ...amounts } = p;
        prices[id] = { ...(amounts as Omit<OfferPriceConfig, "serverOnly">), serverOnly: server_only === true, ...(free_trial ? { freeTrial: free_trial as OfferPriceConfig["freeTrial"] } : {}) };
      }
    }
    return {
      displayName: String(s.display_name ?? ""),
      customerType: (s.customer_type as OfferConfig["customerType"]) ?? "user",
      ...(s.free_trial ? { freeTrial: s.free_trial as OfferConfig["freeTrial"] } : {}),
      serverOnly: s.server_only !== false,
      stackable: s.stackable === true,
      isAddOnTo: false,
      prices: s.prices === "include-by-default" ? "include-by-default" : prices,
      includedItems: included(s.included_items),
    };
  }
  return {
    ...(s as unknown as OfferConfig),
    displayName: String(s.displayName ?? ""),
    customerType: (s.customerType as OfferConfig["customerType"]) ?? "user",
    serverOnly: s.serverOnly === true,
    isAddOnTo: (s.isAddOnTo as OfferConfig["isAddOnTo"] | undefined) ?? false,
    prices: (s.prices as OfferConfig["prices"] | undefined) ?? {},
    includedItems: included(s.includedItems),
  };
}

/** A purchase's offer: the config's offer of that id as configured now, else the stored snapshot. */
export function resolveOffer(payments: PaymentsConfig, offerId: string | null, snapshot: unknown): OfferConfig {
  if (offerId !== null && Object.prototype.hasOwnProperty.call(payments.offers, offerId)) return payments.offers[offerId]!;
  return offerFromSnapshot(snapshot);
}
