import { configureLocalization, type LocaleModule, type StrResult } from "@lit/localize";

export { msg, str } from "@lit/localize";

/** The languages the elements ship in (issue 7). English is the source; the others load on demand. */
export const LOCALES = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "ja", "zh-CN", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
const RIGHT_TO_LEFT = new Set<string>(["ar"]);

/**
 * Where `<locale>.json` files are fetched from. The drop-in bundle sets the path next to itself at build
 * time (dist/locales/); from source it is the package's locales/ folder. Pages may point elsewhere.
 */
declare const __LATCHKEY_LOCALES_PATH__: string | undefined;
// `globalThis.URL`, not `URL`: bundlers (Turbopack, webpack) take `new URL(path, import.meta.url)` for an asset to
// bundle, and fail the build on a path they cannot work out. In a bundled app, call setLocalesUrl.
const defaultPath = typeof __LATCHKEY_LOCALES_PATH__ === "string" ? __LATCHKEY_LOCALES_PATH__ : "../../locales/";
let localesUrl = new globalThis.URL(defaultPath, import.meta.url).href;

export function setLocalesUrl(url: string): void {
  localesUrl = new URL(url, location.href).href;
}

/**
 * Only the active language is downloaded: a JSON catalogue of message id → text, where `{0}`, `{1}` … stand
 * for the values of a `str` message. (JSON rather than generated modules, so the classic-script bundle can
 * load it too.)
 */
async function loadLocale(locale: string): Promise<LocaleModule> {
  const response = await fetch(new URL(`${locale}.json`, localesUrl));
  if (!response.ok) throw new Error(`Could not load the ${locale} messages: HTTP ${response.status}`);
  const catalogue = (await response.json()) as Record<string, string>;
  const templates: Record<string, string | StrResult> = {};
  for (const [id, text] of Object.entries(catalogue)) templates[id] = toTemplate(text);
  return { templates };
}

function toTemplate(text: string): string | StrResult {
  const parts = text.split(/\{(\d+)\}/);
  if (parts.length === 1) return text;
  const strings = parts.filter((_, i) => i % 2 === 0);
  const values = parts.filter((_, i) => i % 2 === 1).map(Number);
  return { strTag: true, strings: Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray, values };
}

const localization = configureLocalization({ sourceLocale: "en", targetLocales: LOCALES.filter((l) => l !== "en"), loadLocale });

export const getLocale = localization.getLocale;

/** The shipped locale closest to a language tag: exact, else by language (`pt` → `pt-BR`, `de-AT` → `de`), else none. */
function supportedLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const lower = tag.toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split("-")[0];
  return LOCALES.find((l) => l.toLowerCase().split("-")[0] === language);
}

/** The shipped locale closest to a language tag, else English. */
export function matchLocale(tag: string | null | undefined): Locale {
  return supportedLocale(tag) ?? "en";
}

/** Where a person's own choice of language is kept, for every page of the site. */
const CHOICE_KEY = "latchkey:locale";

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage blocked (privacy settings, sandboxed frames)
  }
}

/**
 * Switches every element on the page to `tag`'s closest shipped locale; resolves once its messages are in.
 * `{ remember: true }` (a language picker's choice) keeps it for the next pages: it then wins over the page's
 * and the browser's languages.
 */
export function setLocale(tag: string, options: { remember?: boolean } = {}): Promise<void> {
  const locale = matchLocale(tag);
  if (options.remember) storage()?.setItem(CHOICE_KEY, locale);
  return localization.setLocale(locale);
}

/**
 * The language to start in: the person's remembered choice, else the one the app names, else the page's
 * `<html lang>`, else the first of the browser's languages (`navigator.languages`) that is shipped, else English.
 */
export function startingLocale(appChoice?: string): Locale {
  const remembered = supportedLocale(storage()?.getItem(CHOICE_KEY));
  if (remembered) return remembered;
  for (const tag of [appChoice, globalThis.document?.documentElement.lang, ...(globalThis.navigator?.languages ?? [])]) {
    const locale = supportedLocale(tag);
    if (locale) return locale;
  }
  return "en";
}

export function isRightToLeft(locale: string = getLocale()): boolean {
  return RIGHT_TO_LEFT.has(locale);
}
