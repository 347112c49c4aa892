/**
 * The elements any page may show (sign-in flow, user button, team switcher, handler pages), which every entry
 * with elements defines when it loads: the package (index.ts) and the drop-in bundles (drop-in-bundle.ts). The
 * account and team management elements are listed in account-elements.ts.
 */
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

/** `auth-app` first: elements inside it look for it when they connect. */
export const PAGE_ELEMENTS: Record<string, CustomElementConstructor> = {
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

export { defineElements } from "./base/define.js";
