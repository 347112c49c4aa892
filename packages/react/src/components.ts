import {
  AuthCliAuthConfirmElement,
  AuthMfaElement,
  AuthMfaSettingsElement,
  AuthPasskeySettingsElement,
  AuthAccountSettingsElement,
  AuthApiKeySettingsElement,
  AuthDeleteAccountElement,
  AuthEmailSettingsElement,
  AuthNotificationSettingsElement,
  AuthPasswordSettingsElement,
  AuthProfileSettingsElement,
  AuthSessionSettingsElement,
  AuthTeamInvitationElement,
  AuthTeamListSettingsElement,
  AuthTeamSettingsElement,
  AuthTeamSwitcherElement,
  AuthAppElement,
  AuthEmailVerificationElement,
  AuthForgotPasswordElement,
  AuthHandlerElement,
  AuthMagicLinkCallbackElement,
  AuthOAuthCallbackElement,
  AuthConnectedAccountsSettingsElement,
  AuthPasswordResetElement,
  AuthSignInElement,
  AuthSignUpElement,
  AuthUserButtonElement,
} from "@latchkey/elements";
import { createComponent as wrapElement, type EventName, type Options, type ReactWebComponent } from "@lit/react";
import * as React from "react";

/**
 * React components for the Latchkey elements. Each is an @lit/react wrapper: element properties are set as
 * properties (not stringified attributes) and the elements' DOM events become typed `on…` props.
 * Importing this module (through `@latchkey/react`) also defines the custom elements.
 */

/** Detail of `auth-signed-in` and `auth-signed-up`. */
export interface SignedInDetail {
  userId: string;
  isNewUser: boolean;
}

/** Detail of `auth-team-changed` and `auth-team-invitation-accepted`. */
export interface TeamChangedDetail {
  teamId: string | null;
}

/** Detail of `auth-reset-email-sent`. */
export interface ResetEmailSentDetail {
  email: string;
}

const NO_REACT_CONTENT = { __html: "" };

/**
 * `@lit/react`'s wrapper, for an element that renders its own content into its light DOM (so that password
 * managers see the forms): React must leave that content alone. An empty `dangerouslySetInnerHTML` tells it
 * so. Without it, hydrating a server-rendered page fails: the tag from the server upgrades as soon as the
 * script defines the element, and React then finds children it did not render (React error #418).
 */
function createComponent<I extends HTMLElement, E extends Record<string, EventName | string> = {}>(options: Options<I, E>): ReactWebComponent<I, E> {
  // Typed as the wrapper it returns; inside, the props only pass through.
  const Wrapped: React.ElementType = wrapElement(options);
  const OwnContent = React.forwardRef<I, { children?: React.ReactNode }>((props, ref) =>
    React.createElement(Wrapped, props.children === undefined ? { ...props, ref, dangerouslySetInnerHTML: NO_REACT_CONTENT } : { ...props, ref }),
  );
  OwnContent.displayName = options.displayName;
  return OwnContent as unknown as ReactWebComponent<I, E>;
}

// The event names are declared once here and reused by every wrapper that fires them.
const signedIn = "auth-signed-in" as EventName<CustomEvent<SignedInDetail>>;
const signedUp = "auth-signed-up" as EventName<CustomEvent<SignedInDetail>>;
const resetEmailSent = "auth-reset-email-sent" as EventName<CustomEvent<ResetEmailSentDetail>>;
const passwordReset = "auth-password-reset" as EventName<CustomEvent<unknown>>;
const emailVerified = "auth-email-verified" as EventName<CustomEvent<unknown>>;
const signedOut = "auth-signed-out" as EventName<CustomEvent<unknown>>;
const passwordChanged = "auth-password-changed" as EventName<CustomEvent<unknown>>;
const accountDeleted = "auth-account-deleted" as EventName<CustomEvent<unknown>>;
const teamChanged = "auth-team-changed" as EventName<CustomEvent<TeamChangedDetail>>;
const teamInvitationAccepted = "auth-team-invitation-accepted" as EventName<CustomEvent<TeamChangedDetail>>;

/** `<auth-app>`: the app configuration the elements inside it use (prefer `AuthProvider`, which also feeds the hooks). Its children are React's. */
export const AuthApp = wrapElement({ react: React, tagName: "auth-app", elementClass: AuthAppElement, displayName: "AuthApp" });

/** `<auth-sign-in>`: the sign-in methods the project enables. `onAuthSignedIn` gets `{ userId, isNewUser }`. */
export const AuthSignIn = createComponent({
  react: React,
  tagName: "auth-sign-in",
  elementClass: AuthSignInElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthSignIn",
});

/** `<auth-sign-up>`: email and password sign-up. `onAuthSignedUp` gets `{ userId, isNewUser }`. */
export const AuthSignUp = createComponent({
  react: React,
  tagName: "auth-sign-up",
  elementClass: AuthSignUpElement,
  events: { onAuthSignedUp: signedUp },
  displayName: "AuthSignUp",
});

/** `<auth-forgot-password>`: mails a reset link. `onAuthResetEmailSent` gets `{ email }`. */
export const AuthForgotPassword = createComponent({
  react: React,
  tagName: "auth-forgot-password",
  elementClass: AuthForgotPasswordElement,
  events: { onAuthResetEmailSent: resetEmailSent },
  displayName: "AuthForgotPassword",
});

/** `<auth-password-reset>`: sets a new password with the code of a reset link (default: the page URL's `code`). */
export const AuthPasswordReset = createComponent({
  react: React,
  tagName: "auth-password-reset",
  elementClass: AuthPasswordResetElement,
  events: { onAuthPasswordReset: passwordReset },
  displayName: "AuthPasswordReset",
});

/** `<auth-email-verification>`: verifies the address of a verification link on load. */
export const AuthEmailVerification = createComponent({
  react: React,
  tagName: "auth-email-verification",
  elementClass: AuthEmailVerificationElement,
  events: { onAuthEmailVerified: emailVerified },
  displayName: "AuthEmailVerification",
});

/** `<auth-magic-link-callback>`: signs in with the code of a magic link on load. */
export const AuthMagicLinkCallback = createComponent({
  react: React,
  tagName: "auth-magic-link-callback",
  elementClass: AuthMagicLinkCallbackElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthMagicLinkCallback",
});

/** `<auth-oauth-callback>`: finishes a provider sign-in (or link) on the page the provider sent the user back to. */
export const AuthOAuthCallback = createComponent({
  react: React,
  tagName: "auth-oauth-callback",
  elementClass: AuthOAuthCallbackElement,
  events: { onAuthSignedIn: signedIn },
  displayName: "AuthOAuthCallback",
});

/** `<auth-connected-accounts-settings>`: the provider accounts linked to the user: sign-in use, unlink, link another. */
export const AuthConnectedAccountsSettings = createComponent({
  react: React,
  tagName: "auth-connected-accounts-settings",
  elementClass: AuthConnectedAccountsSettingsElement,
  events: { onAuthOauthUnlinked: "auth-oauth-unlinked" as EventName<CustomEvent<{ id: string; providerId: string }>> },
  displayName: "AuthConnectedAccountsSettings",
});

/** `<auth-user-button>`: avatar, name and a menu with account settings and sign-out; a sign-in link when signed out. */
export const AuthUserButton = createComponent({
  react: React,
  tagName: "auth-user-button",
  elementClass: AuthUserButtonElement,
  events: { onAuthSignedOut: signedOut },
  displayName: "AuthUserButton",
});

/** `<auth-handler>`: routes the pages under the app's handler path (`/handler/sign-in`, …) to the right element. */
export const AuthHandler = createComponent({
  react: React,
  tagName: "auth-handler",
  elementClass: AuthHandlerElement,
  events: { onAuthSignedIn: signedIn, onAuthSignedUp: signedUp, onAuthSignedOut: signedOut },
  displayName: "AuthHandler",
});

/** `<auth-account-settings>`: every account section (profile, emails, password, sessions, teams, notifications, API keys, danger zone). */
export const AuthAccountSettings = createComponent({
  react: React,
  tagName: "auth-account-settings",
  elementClass: AuthAccountSettingsElement,
  events: { onAuthPasswordChanged: passwordChanged, onAuthAccountDeleted: accountDeleted },
  displayName: "AuthAccountSettings",
});

/** The account sections on their own. */
export const AuthProfileSettings = createComponent({ react: React, tagName: "auth-profile-settings", elementClass: AuthProfileSettingsElement, displayName: "AuthProfileSettings" });
export const AuthEmailSettings = createComponent({ react: React, tagName: "auth-email-settings", elementClass: AuthEmailSettingsElement, displayName: "AuthEmailSettings" });
export const AuthPasswordSettings = createComponent({
  react: React,
  tagName: "auth-password-settings",
  elementClass: AuthPasswordSettingsElement,
  events: { onAuthPasswordChanged: passwordChanged },
  displayName: "AuthPasswordSettings",
});
export const AuthSessionSettings = createComponent({ react: React, tagName: "auth-session-settings", elementClass: AuthSessionSettingsElement, displayName: "AuthSessionSettings" });
export const AuthTeamListSettings = createComponent({ react: React, tagName: "auth-team-list-settings", elementClass: AuthTeamListSettingsElement, displayName: "AuthTeamListSettings" });
export const AuthNotificationSettings = createComponent({ react: React, tagName: "auth-notification-settings", elementClass: AuthNotificationSettingsElement, displayName: "AuthNotificationSettings" });
export const AuthApiKeySettings = createComponent({ react: React, tagName: "auth-api-key-settings", elementClass: AuthApiKeySettingsElement, displayName: "AuthApiKeySettings" });
export const AuthDeleteAccount = createComponent({
  react: React,
  tagName: "auth-delete-account",
  elementClass: AuthDeleteAccountElement,
  events: { onAuthAccountDeleted: accountDeleted },
  displayName: "AuthDeleteAccount",
});

/** `<auth-team-switcher>`: the selected team and a listbox to switch. `onAuthTeamChanged` gets `{ teamId }`. */
export const AuthTeamSwitcher = createComponent({
  react: React,
  tagName: "auth-team-switcher",
  elementClass: AuthTeamSwitcherElement,
  events: { onAuthTeamChanged: teamChanged },
  displayName: "AuthTeamSwitcher",
});

/** `<auth-team-settings team-id>`: name, image, members, invitations — each action only with its permission. */
export const AuthTeamSettings = createComponent({ react: React, tagName: "auth-team-settings", elementClass: AuthTeamSettingsElement, displayName: "AuthTeamSettings" });

/** `<auth-team-invitation>`: the page a team invitation mail links to. */
export const AuthTeamInvitation = createComponent({
  react: React,
  tagName: "auth-team-invitation",
  elementClass: AuthTeamInvitationElement,
  events: { onAuthTeamInvitationAccepted: teamInvitationAccepted },
  displayName: "AuthTeamInvitation",
});

/** `<auth-mfa>`: the second sign-in step for users with two-factor authentication (the mfa handler page). */
export const AuthMfa = createComponent({ react: React, tagName: "auth-mfa", elementClass: AuthMfaElement, events: { onAuthSignedIn: signedIn }, displayName: "AuthMfa" });

/** `<auth-mfa-settings>`: turning two-factor authentication on (QR code, code checked first) and off. */
export const AuthMfaSettings = createComponent({
  react: React,
  tagName: "auth-mfa-settings",
  elementClass: AuthMfaSettingsElement,
  events: { onAuthMfaChanged: "auth-mfa-changed" as EventName<CustomEvent<{ enabled: boolean }>> },
  displayName: "AuthMfaSettings",
});

/** `<auth-passkey-settings>`: adding a passkey and turning passkey sign-in off. */
export const AuthPasskeySettings = createComponent({
  react: React,
  tagName: "auth-passkey-settings",
  elementClass: AuthPasskeySettingsElement,
  events: { onAuthPasskeyAdded: "auth-passkey-added" as EventName<CustomEvent<unknown>> },
  displayName: "AuthPasskeySettings",
});

/** `<auth-cli-auth-confirm>`: the page a command-line tool's login opens in the browser. */
export const AuthCliAuthConfirm = createComponent({
  react: React,
  tagName: "auth-cli-auth-confirm",
  elementClass: AuthCliAuthConfirmElement,
  events: { onAuthCliLoginConfirmed: "auth-cli-login-confirmed" as EventName<CustomEvent<unknown>> },
  displayName: "AuthCliAuthConfirm",
});
