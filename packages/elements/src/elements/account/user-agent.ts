import { getLocale } from "../../base/i18n.js";

// The first match wins, so browsers built on another name it after their own (Edge and Opera say "Chrome",
// Chrome says "Safari"). A short list on purpose: the sessions list only has to tell a user's devices apart,
// and a full parser (ua-parser-js and the like) would cost more than the rest of the element.
const BROWSERS: [RegExp, string][] = [
  [/Edg/, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser/, "Samsung Internet"],
  [/Firefox|FxiOS/, "Firefox"],
  [/Chrom|CriOS/, "Chrome"],
  [/Safari/, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Mac/, "macOS"],
  [/Linux/, "Linux"],
];

const nameIn = (table: [RegExp, string][], userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1];

/** The browser and operating system a User-Agent names, each undefined when it names none we know. */
export function browserAndSystem(userAgent: string): { browser?: string; system?: string } {
  return { browser: nameIn(BROWSERS, userAgent), system: nameIn(SYSTEMS, userAgent) };
}

/** A country's name in the page's language (`GB` → "United Kingdom", "Vereinigtes Königreich"). */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames([getLocale()], { type: "region" }).of(code) ?? code;
  } catch {
    // Not a region code this browser knows.
    return code;
  }
}
