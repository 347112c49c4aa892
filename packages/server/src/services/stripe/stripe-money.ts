/**
 * Money for Stripe (issue 32): a price's amounts are decimal strings in the project config ("9.99", "1500");
 * Stripe takes integers in the currency's minor unit. The conversion is done on the digits, never through a
 * float, so 19.99 × 3 is 5997 cents and not 5996.999….
 */

/** The currencies a price may name, in the order one is picked to charge in, with their decimal places. */
export const CURRENCY_DECIMALS = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2, AUD: 2, CAD: 2 } as const;
export type Currency = keyof typeof CURRENCY_DECIMALS;

/** `"9.9"` USD → 990n; throws on anything that is not the config's money format (it was validated there). */
export function toMinorUnits(amount: string, currency: Currency): bigint {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  const decimals = CURRENCY_DECIMALS[currency];
  if (!match || (match[2]?.length ?? 0) > decimals) throw new Error(`Not a ${currency} amount: ${JSON.stringify(amount)}`);
  return BigInt(match[1]! + (match[2] ?? "").padEnd(decimals, "0"));
}

/** The currency a price is charged in: the first it names, USD first (the reference charges USD). */
export function chargeCurrency(price: Partial<Record<Currency, string>>): { currency: Currency; amount: string } | null {
  for (const currency of Object.keys(CURRENCY_DECIMALS) as Currency[]) {
    const amount = price[currency];
    if (typeof amount === "string") return { currency, amount };
  }
  return null;
}
