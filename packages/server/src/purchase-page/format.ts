import type { DayInterval, OfferPriceConfig } from "../config/project-config.js";
import { CURRENCY_DECIMALS, chargeCurrency, toMinorUnits } from "../services/stripe/stripe-money.js";

/**
 * How the purchase page words prices (issue 32). Amounts stay decimal strings: Intl.NumberFormat is given the
 * string itself, which it reads as an exact decimal (ECMA-402 NumberFormat v3), never a float.
 */

export function formatAmount(amount: string, currency: string, locale: string): string {
  // `format` takes a decimal string exactly (ECMA-402 v3); the typings still ask for a number.
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount as unknown as number);
}

const UNIT = { day: "day", week: "week", month: "month", year: "year" } as const;

/** `[1, "month"]` → "per month"; `[3, "month"]` → "every 3 months". */
export function intervalText([count, unit]: DayInterval): string {
  return count === 1 ? `per ${UNIT[unit]}` : `every ${count} ${UNIT[unit]}s`;
}

/** `[14, "day"]` → "14-day free trial". */
export function freeTrialText([count, unit]: DayInterval): string {
  return `${count}-${UNIT[unit]} free trial`;
}

export interface PriceView {
  id: string;
  /** "$9.99" in the page's language, in the currency the price is charged in. */
  amount: string;
  /** "per month", "one-time". */
  cadence: string;
  trial?: string;
  recurring: boolean;
  /** For the page's total: the amount in minor units (a decimal string of an integer) and the currency. */
  currency: string;
  minorUnits: string;
  decimals: number;
}

export function priceView(id: string, price: OfferPriceConfig, locale: string, offerTrial?: DayInterval): PriceView | undefined {
  const charge = chargeCurrency(price);
  if (!charge) return undefined;
  const trial = price.freeTrial ?? (price.interval ? offerTrial : undefined);
  return {
    id,
    amount: formatAmount(charge.amount, charge.currency, locale),
    cadence: price.interval ? intervalText(price.interval) : "one-time",
    ...(trial ? { trial: freeTrialText(trial) } : {}),
    recurring: price.interval !== undefined,
    currency: charge.currency,
    minorUnits: toMinorUnits(charge.amount, charge.currency).toString(),
    decimals: CURRENCY_DECIMALS[charge.currency],
  };
}
