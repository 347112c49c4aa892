/**
 * The drop-in bundles with every element, `latchkey.iife.js` (a classic script, the `Latchkey` global) and
 * `latchkey.js` (ESM): the API of index.ts, with the elements of the sign-in flow and of every page (user
 * button, team switcher, handler pages) inside, and the account and team management elements loaded from
 * `latchkey-account.js` when one is placed on the page (account-elements-loader.ts). Their classes are not
 * exports here: `customElements.get(name)` has them once defined.
 */
import { defineAccountElementsOnUse } from "./account-elements-loader.js";
import { PAGE_ELEMENTS, defineElements } from "./page-elements.js";

export { defineAccountElements, ACCOUNT_ELEMENT_TAGS } from "./account-elements-loader.js";
export { setDefaultApp, getDefaultApp } from "./base/app-registry.js";
export { LOCALES, getLocale, setLocale, setLocalesUrl, type Locale } from "./base/i18n.js";
export { MFA_ATTEMPT_CODE_KEY } from "./elements/sign-in.js";
export { init, initHostedPage, type InitOptions } from "./init-full.js";
// The payment stores of an app (`Latchkey.paymentsOf(app).itemStore({ itemId })`): already in the bundle for the
// payment widgets loaded on use, which share it.
export { paymentsOf } from "@latchkey/core";
export {
  AuthAppElement,
  AuthCliAuthConfirmElement,
  AuthEmailVerificationElement,
  AuthForgotPasswordElement,
  AuthHandlerElement,
  AuthMagicLinkCallbackElement,
  AuthMfaElement,
  AuthOAuthCallbackElement,
  AuthPasswordResetElement,
  AuthSignInElement,
  AuthSignUpElement,
  AuthTeamSwitcherElement,
  AuthUserButtonElement,
} from "./page-elements.js";

defineElements(PAGE_ELEMENTS);
if (typeof customElements !== "undefined") defineAccountElementsOnUse(document);
