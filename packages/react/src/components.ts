import {
  AuthAppElement,
  AuthEmailVerificationElement,
  AuthForgotPasswordElement,
  AuthHandlerElement,
  AuthMagicLinkCallbackElement,
  AuthPasswordResetElement,
  AuthSignInElement,
  AuthSignUpElement,
  AuthUserButtonElement,
} from "@latchkey/elements";
import { createComponent, type EventName } from "@lit/react";
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

/** Detail of `auth-reset-email-sent`. */
export interface ResetEmailSentDetail {
  email: string;
}

// The event names are declared once here and reused by every wrapper that fires them.
const signedIn = "auth-signed-in" as EventName<CustomEvent<SignedInDetail>>;
const signedUp = "auth-signed-up" as EventName<CustomEvent<SignedInDetail>>;
const resetEmailSent = "auth-reset-email-sent" as EventName<CustomEvent<ResetEmailSentDetail>>;
const passwordReset = "auth-password-reset" as EventName<CustomEvent<unknown>>;
const emailVerified = "auth-email-verified" as EventName<CustomEvent<unknown>>;
const signedOut = "auth-signed-out" as EventName<CustomEvent<unknown>>;

/** `<auth-app>`: the app configuration the elements inside it use (prefer `AuthProvider`, which also feeds the hooks). */
export const AuthApp = createComponent({ react: React, tagName: "auth-app", elementClass: AuthAppElement, displayName: "AuthApp" });

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
