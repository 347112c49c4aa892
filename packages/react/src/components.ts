/**
 * React components for the Latchkey elements, one module each (components/<tag>.ts): importing this module
 * (through `@latchkey/react`) defines every element, but a production build keeps only the components an app
 * uses, with their elements (the package's `sideEffects: false`, and each component's module importing only its
 * own element's entry, `@latchkey/elements/sign-in`, …).
 */
export type { CheckoutCreatedDetail, ResetEmailSentDetail, SignedInDetail, TeamChangedDetail } from "./components/wrap.js";
export { AuthAccountSettings } from "./components/account-settings.js";
export { AuthApiKeySettings } from "./components/api-key-settings.js";
export { AuthApp } from "./components/app.js";
export { AuthCliAuthConfirm } from "./components/cli-auth-confirm.js";
export { AuthConnectedAccountsSettings } from "./components/connected-accounts-settings.js";
export { AuthDeleteAccount } from "./components/delete-account.js";
export { AuthEmailSettings } from "./components/email-settings.js";
export { AuthEmailVerification } from "./components/email-verification.js";
export { AuthForgotPassword } from "./components/forgot-password.js";
export { AuthHandler } from "./components/handler.js";
export { AuthItemBalance } from "./components/item-balance.js";
export { AuthMagicLinkCallback } from "./components/magic-link-callback.js";
export { AuthMfa } from "./components/mfa.js";
export { AuthMfaSettings } from "./components/mfa-settings.js";
export { AuthNotificationSettings } from "./components/notification-settings.js";
export { AuthOAuthCallback } from "./components/oauth-callback.js";
export { AuthPasskeySettings } from "./components/passkey-settings.js";
export { AuthPasswordReset } from "./components/password-reset.js";
export { AuthPasswordSettings } from "./components/password-settings.js";
export { AuthPricingTable } from "./components/pricing-table.js";
export { AuthProfileSettings } from "./components/profile-settings.js";
export { AuthSessionSettings } from "./components/session-settings.js";
export { AuthSignIn } from "./components/sign-in.js";
export { AuthSignUp } from "./components/sign-up.js";
export { AuthTeamInvitation } from "./components/team-invitation.js";
export { AuthTeamListSettings } from "./components/team-list-settings.js";
export { AuthTeamSettings } from "./components/team-settings.js";
export { AuthTeamSwitcher } from "./components/team-switcher.js";
export { AuthUserButton } from "./components/user-button.js";
