/**
 * The drop-in bundles with every element, `latchkey.iife.js` (a classic script, the `Latchkey` global) and
 * `latchkey.js` (ESM): the API of index.ts, with the elements of the sign-in flow and of every page (user
 * button, team switcher, handler pages) inside, and the account and team management elements loaded from
 * `latchkey-account.js` when one is placed on the page (account-elements-loader.ts). Their classes are not
 * exports here: `customElements.get(name)` has them once defined.
 */
import { defineAccountElementsOnUse } from "./account-elements-loader.js";
import { AuthAppElement } from "./elements/app.js";
import { AuthCliAuthConfirmElement } from "./elements/cli-auth-confirm.js";
import { AuthEmailVerificationElement } from "./elements/email-verification.js";
import { AuthForgotPasswordElement } from "./elements/forgot-password.js";
import { AuthHandlerElement } from "./elements/handler.js";
import { AuthMagicLinkCallbackElement } from "./elements/magic-link-callback.js";
import { AuthMfaElement } from "./elements/mfa.js";
import { AuthOAuthCallbackElement } from "./elements/oauth-callback.js";
import { AuthPasswordResetElement } from "./elements/password-reset.js";
import { AuthSignInElement } from "./elements/sign-in.js";
import { AuthSignUpElement } from "./elements/sign-up.js";
import { AuthTeamSwitcherElement } from "./elements/teams/team-switcher.js";
import { AuthUserButtonElement } from "./elements/user-button.js";

export { defineAccountElements, ACCOUNT_ELEMENT_TAGS } from "./account-elements-loader.js";
export { setDefaultApp, getDefaultApp } from "./base/app-registry.js";
export { LOCALES, getLocale, setLocale, setLocalesUrl, type Locale } from "./base/i18n.js";
export { MFA_ATTEMPT_CODE_KEY } from "./elements/sign-in.js";
export { init, initHostedPage, type InitOptions } from "./init-full.js";
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
};

const ELEMENTS: Record<string, CustomElementConstructor> = {
  "auth-app": AuthAppElement,
  "auth-sign-in": AuthSignInElement,
  "auth-sign-up": AuthSignUpElement,
  "auth-forgot-password": AuthForgotPasswordElement,
  "auth-password-reset": AuthPasswordResetElement,
  "auth-email-verification": AuthEmailVerificationElement,
  "auth-magic-link-callback": AuthMagicLinkCallbackElement,
  "auth-oauth-callback": AuthOAuthCallbackElement,
  "auth-user-button": AuthUserButtonElement,
  "auth-handler": AuthHandlerElement,
  "auth-mfa": AuthMfaElement,
  "auth-cli-auth-confirm": AuthCliAuthConfirmElement,
  "auth-team-switcher": AuthTeamSwitcherElement,
};
if (typeof customElements !== "undefined") {
  // `auth-app` first: elements inside it look for it when they connect.
  for (const [name, element] of Object.entries(ELEMENTS)) if (!customElements.get(name)) customElements.define(name, element);
  defineAccountElementsOnUse(document);
}
