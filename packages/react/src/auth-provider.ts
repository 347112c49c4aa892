import { createClientApp, type AppUrls, type ClientApp, type TokenStoreInit } from "@latchkey/core";
import { createElement, useState, type ReactNode } from "react";
import { AppContext } from "./app-context.js";

interface ProviderLook {
  /** `light` or `dark`; by default the elements follow the system's `prefers-color-scheme`. */
  theme?: "light" | "dark";
  children?: ReactNode;
}

/** Give an app you created (e.g. shared with non-React code)… */
export interface AuthProviderWithApp extends ProviderLook {
  app: ClientApp;
}

/** …or the options to create one. */
export interface AuthProviderWithOptions extends ProviderLook {
  projectId: string;
  publishableClientKey: string;
  /** The Latchkey server, e.g. `https://auth.example.com`. */
  baseUrl: string;
  urls?: Partial<AppUrls>;
  /** Default `cookie`. */
  tokenStore?: TokenStoreInit;
}

export type AuthProviderProps = AuthProviderWithApp | AuthProviderWithOptions;

/**
 * Provides one Latchkey app to everything below it: to the hooks (`useUser`, …) through React context, and to
 * the elements (`AuthSignIn`, …) through an `<auth-app>` element whose `.app` is that same app, so hooks
 * and elements always share one session. The app is created once, on the first render: later changes to
 * the options are ignored (remount the provider, e.g. with a `key`, to switch projects).
 *
 * @example
 * ```ts
 * createElement(AuthProvider, { projectId, publishableClientKey, baseUrl: "https://auth.example.com" },
 *   createElement(AuthSignIn, { onAuthSignedIn: (event) => console.log(event.detail.userId) }));
 * ```
 */
export function AuthProvider(props: AuthProviderProps): ReactNode {
  const [app] = useState(() => ("app" in props ? props.app : createClientApp(optionsOf(props))));
  // A plain `auth-app` element rather than the AuthApp wrapper: React 19 sets a custom element's known
  // properties when it creates the element, before its children are connected, so the elements inside find
  // `.app` on their first lookup. The @lit/react wrapper would set it only later, in a layout effect.
  const element = createElement("auth-app", { app, theme: props.theme }, props.children);
  return createElement(AppContext.Provider, { value: app }, element);
}

function optionsOf(props: AuthProviderWithOptions) {
  const { projectId, publishableClientKey, baseUrl, urls, tokenStore } = props;
  return { projectId, publishableClientKey, baseUrl, urls, tokenStore };
}
