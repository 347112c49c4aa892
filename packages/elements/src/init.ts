import { createClientApp, type ClientApp, type ClientAppOptions } from "@latchkey/core";
import { setDefaultApp } from "./base/app-registry.js";
import { setLocale, setLocalesUrl, startingLocale } from "./base/i18n.js";

export interface InitOptions extends ClientAppOptions {
  /**
   * The elements' language (see `LOCALES`). A person's own choice (`setLocale(tag, { remember: true })`) wins;
   * without one: this, else the page's `<html lang>`, else the browser's languages, else English.
   */
  locale?: string;
  /** Where the `<locale>.json` message files are; default: `locales/` next to the bundle. */
  localesUrl?: string;
}

/** Creates the page's app and makes it the default for every element not inside an `<auth-app>`. */
export function init(options: InitOptions): ClientApp {
  // The hosted pages' support is in the full bundle only (latchkey.iife.js), to keep this one small.
  if ((options as { hostedPages?: unknown }).hostedPages) throw new Error("hostedPages needs the full bundle, latchkey.iife.js");
  return initWith(createClientApp, options);
}

/** `init` with another way to make the app (the full bundle's, for the hosted handler pages). */
export function initWith(create: (options: ClientAppOptions) => ClientApp, options: InitOptions): ClientApp {
  const { locale, localesUrl, ...appOptions } = options;
  if (localesUrl) setLocalesUrl(localesUrl);
  const app = create(appOptions);
  setDefaultApp(app);
  void setLocale(startingLocale(locale));
  return app;
}
