import type { ExpiresRule, IncludedItemConfig, OfferConfig, PaymentsConfig, PriceConfig } from "./payments-config.js";
import {
  CURRENCIES,
  CUSTOMER_TYPE_LABELS,
  idProblem,
  intervalCountProblem,
  moneyProblem,
  quantityProblem,
  type CurrencyCode,
  type CustomerType,
  type DayInterval,
  type IntervalUnit,
} from "./payments-rules.js";

/**
 * The offer form's input, as typed (every number a string until checked), and its conversion from and to the
 * config's offer. `checkOffer` says each problem under the field it is about, by a path such as
 * `prices.0.USD` or `includedItems.1.quantity`.
 */

/** An interval as two fields; a blank unit means none (no trial, no interval, never repeats). */
export interface IntervalInput {
  count: string;
  unit: IntervalUnit | "";
}

export interface PriceInput {
  /** Stable across edits of the list, for React keys and field ids. */
  key: string;
  id: string;
  amounts: Partial<Record<CurrencyCode, string>>;
  interval: IntervalInput;
  freeTrial: IntervalInput;
  serverOnly: boolean;
}

export interface IncludedItemInput {
  key: string;
  itemId: string;
  quantity: string;
  repeat: IntervalInput;
  expires: ExpiresRule;
}

export interface OfferInput {
  id: string;
  displayName: string;
  customerType: CustomerType;
  /** "" for none. */
  groupId: string;
  addOnTo: string[];
  serverOnly: boolean;
  stackable: boolean;
  freeTrial: IntervalInput;
  includeByDefault: boolean;
  prices: PriceInput[];
  includedItems: IncludedItemInput[];
}

export type OfferErrors = Record<string, string>;

const NO_INTERVAL: IntervalInput = { count: "1", unit: "" };
let keys = 0;
const nextKey = () => `k${++keys}`;

const intervalInput = (interval: DayInterval | "never" | undefined): IntervalInput =>
  interval === undefined || interval === "never" ? NO_INTERVAL : { count: String(interval[0]), unit: interval[1] };

export const emptyPrice = (id = ""): PriceInput => ({ key: nextKey(), id, amounts: {}, interval: NO_INTERVAL, freeTrial: NO_INTERVAL, serverOnly: false });
export const emptyIncludedItem = (itemId = ""): IncludedItemInput => ({ key: nextKey(), itemId, quantity: "1", repeat: NO_INTERVAL, expires: "when-purchase-expires" });

export function newOfferInput(): OfferInput {
  return {
    id: "",
    displayName: "",
    customerType: "user",
    groupId: "",
    addOnTo: [],
    serverOnly: false,
    stackable: false,
    freeTrial: NO_INTERVAL,
    includeByDefault: false,
    prices: [emptyPrice("monthly")],
    includedItems: [],
  };
}

export function offerInput(id: string, offer: OfferConfig): OfferInput {
  const prices = offer.prices === "include-by-default" ? [] : Object.entries(offer.prices);
  return {
    id,
    displayName: offer.displayName,
    customerType: offer.customerType,
    groupId: offer.groupId ?? "",
    addOnTo: offer.isAddOnTo === false ? [] : Object.keys(offer.isAddOnTo),
    serverOnly: offer.serverOnly,
    stackable: offer.stackable ?? false,
    freeTrial: intervalInput(offer.freeTrial),
    includeByDefault: offer.prices === "include-by-default",
    prices: prices.map(([priceId, price]) => ({
      key: nextKey(),
      id: priceId,
      amounts: Object.fromEntries(CURRENCIES.filter((c) => price[c.code] !== undefined).map((c) => [c.code, price[c.code]])),
      interval: intervalInput(price.interval),
      freeTrial: intervalInput(price.freeTrial),
      serverOnly: price.serverOnly ?? false,
    })),
    includedItems: Object.entries(offer.includedItems).map(([itemId, item]) => ({
      key: nextKey(),
      itemId,
      quantity: String(item.quantity),
      repeat: intervalInput(item.repeat),
      expires: item.expires,
    })),
  };
}

/** The interval a pair of fields names, undefined for none; a problem goes under `path`. */
function checkInterval(input: IntervalInput, path: string, errors: OfferErrors): DayInterval | undefined {
  if (input.unit === "") return undefined;
  const problem = intervalCountProblem(input.count.trim());
  if (problem) errors[path] = problem;
  return [Number(input.count.trim()), input.unit];
}

/**
 * The offer the form describes, as the config holds it, or the problems with it. `isNew` also checks the id
 * (an existing offer's id is its identity and is not edited).
 */
export function checkOffer(input: OfferInput, payments: PaymentsConfig, isNew: boolean): { offer: OfferConfig } | { errors: OfferErrors } {
  const errors: OfferErrors = {};
  const id = input.id.trim();
  if (isNew) {
    const problem = idProblem(id, "an id for the offer") ?? (Object.hasOwn(payments.offers, id) ? "There is already an offer with this id." : undefined);
    if (problem) errors.id = problem;
  }
  if (input.displayName.trim() === "") errors.displayName = "Enter the name customers see, e.g. Pro.";
  if (input.includeByDefault && input.groupId === "") errors.groupId = "An offer included by default needs a group: customers hold it while they hold no other offer of that group.";
  const freeTrial = checkInterval(input.freeTrial, "freeTrial", errors);

  let prices: OfferConfig["prices"] = "include-by-default";
  if (!input.includeByDefault) {
    prices = {};
    if (input.prices.length === 0) errors.prices = "Add a price, or make the offer included by default.";
    input.prices.forEach((price, index) => {
      const at = `prices.${index}`;
      const priceId = price.id.trim();
      const idError = idProblem(priceId, "an id for the price") ?? (input.prices.findIndex((p) => p.id.trim() === priceId) < index ? "Two prices cannot share an id." : undefined);
      if (idError) errors[`${at}.id`] = idError;
      const config: PriceConfig = { serverOnly: price.serverOnly };
      for (const { code } of CURRENCIES) {
        const amount = price.amounts[code]?.trim() ?? "";
        if (amount === "") continue;
        const problem = moneyProblem(amount, code);
        if (problem) errors[`${at}.${code}`] = problem;
        config[code] = amount;
      }
      if (!CURRENCIES.some(({ code }) => config[code] !== undefined)) errors[`${at}.amounts`] = "Enter an amount in at least one currency.";
      const interval = checkInterval(price.interval, `${at}.interval`, errors);
      if (interval) config.interval = interval;
      const trial = checkInterval(price.freeTrial, `${at}.freeTrial`, errors);
      if (trial) config.freeTrial = trial;
      (prices as Record<string, PriceConfig>)[priceId] = config;
    });
  }

  const includedItems: Record<string, IncludedItemConfig> = {};
  input.includedItems.forEach((included, index) => {
    const at = `includedItems.${index}`;
    const item = payments.items[included.itemId];
    if (!item) errors[`${at}.itemId`] = "Choose an item.";
    else if (Object.hasOwn(includedItems, included.itemId)) errors[`${at}.itemId`] = "This item is already included above.";
    else if (item.customerType !== input.customerType)
      errors[`${at}.itemId`] = `This item is held by ${CUSTOMER_TYPE_LABELS[item.customerType].toLowerCase()}, the offer is for ${CUSTOMER_TYPE_LABELS[input.customerType].toLowerCase()}.`;
    const quantityError = quantityProblem(included.quantity.trim());
    if (quantityError) errors[`${at}.quantity`] = quantityError;
    const repeat = checkInterval(included.repeat, `${at}.repeat`, errors) ?? "never";
    includedItems[included.itemId] = { quantity: Number(included.quantity.trim()), repeat, expires: included.expires };
  });

  for (const base of input.addOnTo) {
    if (!payments.offers[base]) errors.addOnTo = `The offer ${base} no longer exists.`;
  }

  if (Object.keys(errors).length > 0) return { errors };
  const offer: OfferConfig = {
    displayName: input.displayName.trim(),
    customerType: input.customerType,
    ...(input.groupId !== "" && { groupId: input.groupId }),
    isAddOnTo: input.addOnTo.length === 0 ? false : Object.fromEntries(input.addOnTo.map((base) => [base, true as const])),
    serverOnly: input.serverOnly,
    stackable: input.stackable,
    ...(freeTrial && { freeTrial }),
    prices,
    includedItems,
  };
  return { offer };
}
