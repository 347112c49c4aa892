import { createComponent as wrapElement, type EventName, type Options, type ReactWebComponent } from "@lit/react";
import * as React from "react";

/**
 * What the React components for the Latchkey elements share (one module per component, components/<tag>.ts, so
 * that an app bundles only the elements it uses). Each is an @lit/react wrapper: element properties are set as
 * properties (not stringified attributes) and the elements' DOM events become typed `on…` props. A component's
 * module imports its element's entry (`@latchkey/elements/sign-in`, …), which defines that element.
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
export function createComponent<I extends HTMLElement, E extends Record<string, EventName | string> = {}>(options: Options<I, E>): ReactWebComponent<I, E> {
  // Typed as the wrapper it returns; inside, the props only pass through.
  const Wrapped: React.ElementType = wrapElement(options);
  const OwnContent = React.forwardRef<I, { children?: React.ReactNode }>((props, ref) =>
    React.createElement(Wrapped, props.children === undefined ? { ...props, ref, dangerouslySetInnerHTML: NO_REACT_CONTENT } : { ...props, ref }),
  );
  OwnContent.displayName = options.displayName;
  return OwnContent as unknown as ReactWebComponent<I, E>;
}

// The event names are declared once here and reused by every wrapper that fires them.
export const signedIn = "auth-signed-in" as EventName<CustomEvent<SignedInDetail>>;
export const signedUp = "auth-signed-up" as EventName<CustomEvent<SignedInDetail>>;
export const resetEmailSent = "auth-reset-email-sent" as EventName<CustomEvent<ResetEmailSentDetail>>;
export const passwordReset = "auth-password-reset" as EventName<CustomEvent<unknown>>;
export const emailVerified = "auth-email-verified" as EventName<CustomEvent<unknown>>;
export const signedOut = "auth-signed-out" as EventName<CustomEvent<unknown>>;
export const passwordChanged = "auth-password-changed" as EventName<CustomEvent<unknown>>;
export const accountDeleted = "auth-account-deleted" as EventName<CustomEvent<unknown>>;
export const teamChanged = "auth-team-changed" as EventName<CustomEvent<TeamChangedDetail>>;
export const teamInvitationAccepted = "auth-team-invitation-accepted" as EventName<CustomEvent<TeamChangedDetail>>;

/** Detail of `auth-checkout-created` (<auth-pricing-table>): the offer and its purchase link. */
export interface CheckoutCreatedDetail {
  offerId: string;
  url: string;
}
export const checkoutCreated = "auth-checkout-created" as EventName<CustomEvent<CheckoutCreatedDetail>>;
