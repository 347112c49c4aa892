import { createElement, Fragment, useEffect, type ReactNode } from "react";
import { useApp, useAuth } from "./hooks.js";

/** Its children only while someone is signed in (nothing while loading). */
export function SignedIn(props: { children?: ReactNode }): ReactNode {
  const { isLoaded, isSignedIn } = useAuth();
  return isLoaded && isSignedIn ? createElement(Fragment, null, props.children) : null;
}

/** Its children only once it is known that nobody is signed in. */
export function SignedOut(props: { children?: ReactNode }): ReactNode {
  const { isLoaded, isSignedIn } = useAuth();
  return isLoaded && !isSignedIn ? createElement(Fragment, null, props.children) : null;
}

/** Sends the visitor to the sign-in page (carrying this page as the place to come back to) when rendered. */
export function RedirectToSignIn(): ReactNode {
  const app = useApp();
  useEffect(() => {
    void app.redirectToSignIn({ replace: true });
  }, [app]);
  return null;
}
