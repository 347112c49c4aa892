"use client";
// The whole package is client code (hooks, context, custom elements): a React Server Component may render its
// components with serializable props, and RSC bundlers (Next.js) treat everything exported here as client
// components, server-rendered to HTML and then hydrated in the browser.
/**
 * @latchkey/react: the Latchkey elements as React components (typed props, `onAuth…` event props), hooks
 * over the client's stores, and `AuthProvider`, which gives one app to both.
 *
 * @example
 * ```ts
 * import { createElement as h } from "react";
 * import { AuthProvider, AuthSignIn, AuthUserButton, useUser } from "@latchkey/react";
 *
 * function Header() {
 *   const user = useUser(); // undefined while loading, null when signed out
 *   return user ? h(AuthUserButton, { showName: true }) : h(AuthSignIn, { noRedirect: true });
 * }
 * h(AuthProvider, { projectId, publishableClientKey, baseUrl: "https://auth.example.com" }, h(Header));
 * ```
 */
export {
  AuthCliAuthConfirm,
  AuthMfa,
  AuthMfaSettings,
  AuthPasskeySettings,
  AuthAccountSettings,
  AuthApiKeySettings,
  AuthApp,
  AuthDeleteAccount,
  AuthEmailSettings,
  AuthNotificationSettings,
  AuthPasswordSettings,
  AuthProfileSettings,
  AuthSessionSettings,
  AuthTeamInvitation,
  AuthTeamListSettings,
  AuthTeamSettings,
  AuthTeamSwitcher,
  type TeamChangedDetail,
  AuthEmailVerification,
  AuthForgotPassword,
  AuthHandler,
  AuthMagicLinkCallback,
  AuthOAuthCallback,
  AuthConnectedAccountsSettings,
  AuthPasswordReset,
  AuthSignIn,
  AuthSignUp,
  AuthUserButton,
  AuthPricingTable,
  AuthItemBalance,
  type CheckoutCreatedDetail,
  type ResetEmailSentDetail,
  type SignedInDetail,
} from "./components.js";
export { AuthProvider, type Appearance, type AuthProviderProps, type AuthProviderWithApp, type AuthProviderWithOptions } from "./auth-provider.js";
export { useApp, useAuth, useProject, useTeams, useUser, type AuthState } from "./hooks.js";
export { useItem, useOffers } from "./payment-hooks.js";
export { RedirectToSignIn, SignedIn, SignedOut } from "./control.js";
export { Protect, usePermission, type ProtectProps } from "./protect.js";
export { AppContext } from "./app-context.js";
