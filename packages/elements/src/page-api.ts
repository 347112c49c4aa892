/**
 * What every per-element entry (entries/*.ts: `@latchkey/elements/sign-in`, …) exports besides its element:
 * the page's app and language, as the package's main entry has them. Nothing here defines an element.
 */
export { setDefaultApp, getDefaultApp } from "./base/app-registry.js";
export { LOCALES, getLocale, setLocale, setLocalesUrl, type Locale } from "./base/i18n.js";
export { init, initHostedPage, type InitOptions } from "./init-full.js";
