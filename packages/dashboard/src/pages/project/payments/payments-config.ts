import type { ProjectConfigObject } from "@latchkey/core";
import type { CurrencyCode, CustomerType, DayInterval } from "./payments-rules.js";

/**
 * The `payments` section of the project's config as `GET /internal/config` renders it (camelCase, defaults
 * filled in). The Payments pages read it through the project-config query and write it back with
 * `PATCH /internal/config/override`, one dotted key per thing changed (`payments.offers.pro`) and `null` to
 * remove one, so a change never touches what it does not name.
 */
export interface PaymentsConfig {
  groups: Record<string, GroupConfig>;
  items: Record<string, ItemConfig>;
  offers: Record<string, OfferConfig>;
}

export interface GroupConfig {
  displayName?: string;
}

export interface ItemConfig {
  displayName: string;
  customerType: CustomerType;
}

export type PriceConfig = Partial<Record<CurrencyCode, string>> & {
  interval?: DayInterval;
  freeTrial?: DayInterval;
  serverOnly?: boolean;
};

export type ExpiresRule = "never" | "when-purchase-expires" | "when-repeated";

export interface IncludedItemConfig {
  quantity: number;
  repeat: DayInterval | "never";
  expires: ExpiresRule;
}

export interface OfferConfig {
  displayName: string;
  groupId?: string;
  isAddOnTo: false | Record<string, true>;
  customerType: CustomerType;
  freeTrial?: DayInterval;
  serverOnly: boolean;
  stackable?: boolean;
  prices: "include-by-default" | Record<string, PriceConfig>;
  includedItems: Record<string, IncludedItemConfig>;
}

/** The payments section of a rendered config (empty records when the server renders none). */
export function paymentsConfigOf(config: ProjectConfigObject): PaymentsConfig {
  const payments = (config.payments ?? {}) as Partial<PaymentsConfig>;
  return { groups: payments.groups ?? {}, items: payments.items ?? {}, offers: payments.offers ?? {} };
}

/** The override key of one entry, e.g. `payments.offers.pro`. */
export const paymentsKey = (kind: keyof PaymentsConfig, id: string) => `payments.${kind}.${id}`;

/** A group's name as shown: its display name, or its id when it has none. */
export const groupName = (payments: PaymentsConfig, id: string) => payments.groups[id]?.displayName || id;

/** The offers that use an item, a group or another offer: what removing it would leave pointing at nothing. */
export function usersOf(payments: PaymentsConfig, kind: "items" | "groups" | "offers", id: string): string[] {
  return Object.entries(payments.offers)
    .filter(([offerId, offer]) => {
      if (kind === "items") return Object.hasOwn(offer.includedItems, id);
      if (kind === "groups") return offer.groupId === id;
      return offerId !== id && offer.isAddOnTo !== false && Object.hasOwn(offer.isAddOnTo, id);
    })
    .map(([offerId, offer]) => offer.displayName || offerId);
}
