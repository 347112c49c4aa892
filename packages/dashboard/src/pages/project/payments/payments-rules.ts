/**
 * The rules the config schema holds payments ids and prices to (issue 32, SPEC §5), checked in the browser so
 * a form says what is wrong before anything is sent; the server checks them again and has the last word.
 * Money stays a decimal string from the field to the wire: it is compared as text, never parsed into a float.
 */

/** The currencies a price may name, with the decimals each has (as the reference's SUPPORTED_CURRENCIES). */
export const CURRENCIES = [
  { code: "USD", decimals: 2 },
  { code: "EUR", decimals: 2 },
  { code: "GBP", decimals: 2 },
  { code: "JPY", decimals: 0 },
  { code: "INR", decimals: 2 },
  { code: "AUD", decimals: 2 },
  { code: "CAD", decimals: 2 },
] as const;

export type CurrencyCode = (typeof CURRENCIES)[number]["code"];

export const CUSTOMER_TYPES = ["user", "team", "custom"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const CUSTOMER_TYPE_LABELS: Record<CustomerType, string> = { user: "Users", team: "Teams", custom: "Custom customers" };

export const INTERVAL_UNITS = ["day", "week", "month", "year"] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
export type DayInterval = [number, IntervalUnit];

const ID = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;
export const MAX_ID_LENGTH = 63;

/** What is wrong with an id a person typed for a group, item, offer or price (`what`: "an item id"), or undefined. */
export function idProblem(value: string, what: string): string | undefined {
  if (value === "") return `Enter ${what}.`;
  if (value.length > MAX_ID_LENGTH) return `An id has at most ${MAX_ID_LENGTH} characters (this one has ${value.length}).`;
  if (!ID.test(value)) return "An id starts with a letter or _ and has only letters, digits, _ and -.";
  return undefined;
}

/** What is wrong with an amount of `currency` a person typed (e.g. "9.99"), or undefined. */
export function moneyProblem(value: string, currency: CurrencyCode): string | undefined {
  const { decimals } = CURRENCIES.find((c) => c.code === currency)!;
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(value);
  if (!match) return `Enter an amount like ${decimals === 0 ? "1200" : "9.99"}: digits${decimals === 0 ? "" : " and a decimal point"} only.`;
  const [, whole = "", fraction] = match;
  if (fraction !== undefined && fraction.length > decimals)
    return decimals === 0 ? `${currency} has no decimals: enter a whole amount.` : `${currency} has ${decimals} decimals at most.`;
  if (whole !== "0" && whole.startsWith("0")) return "Leave out leading zeros (e.g. 9.99, not 09.99).";
  return undefined;
}

/** What is wrong with an interval's count (a whole number of days, weeks…), or undefined. */
export function intervalCountProblem(value: string): string | undefined {
  if (!/^[0-9]+$/.test(value)) return "Enter a whole number.";
  if (value.length > 1 && value.startsWith("0")) return "Leave out leading zeros.";
  // The config allows 0, which would bill (or repeat) without end: choose "none" for no interval instead.
  if (Number(value) === 0) return "Enter at least 1.";
  return Number(value) > 1000 ? "Enter at most 1000." : undefined;
}

/** A quantity of an item (a whole number, negative only where `allowNegative`), or undefined. */
export function quantityProblem(value: string, { allowNegative = false, allowZero = true } = {}): string | undefined {
  const pattern = allowNegative ? /^-?[0-9]+$/ : /^[0-9]+$/;
  if (!pattern.test(value)) return allowNegative ? "Enter a whole number, e.g. 10 or -5." : "Enter a whole number, e.g. 10.";
  const number = Number(value);
  if (!Number.isSafeInteger(number)) return "That number is too large.";
  if (!allowZero && number === 0) return "Enter a number other than 0.";
  return undefined;
}

/** "1 month", "3 weeks". */
export function formatInterval([count, unit]: DayInterval): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** "USD 9.99 / EUR 8.99" of a price's amounts, in the currencies' order (the strings as configured). */
export function formatAmounts(price: Partial<Record<CurrencyCode, string>>): string {
  return CURRENCIES.filter((c) => price[c.code] !== undefined)
    .map((c) => `${c.code} ${price[c.code]}`)
    .join(" / ");
}
