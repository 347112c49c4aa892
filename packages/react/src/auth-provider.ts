import { createClientApp, type AppUrls, type ClientApp, type TokenStoreInit } from "@latchkey/core";
// Defines <auth-app>, which the provider renders (and no other element: each component's module defines its own).
import "@latchkey/elements/app";
import type { AuthAppElement } from "@latchkey/elements/app";
import { createElement, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { AppContext } from "./app-context.js";

/** How the elements inside look: their theme's CSS custom properties (the elements' README lists them). */
export interface Appearance {
  /** e.g. `{ "--auth-color-primary": "#7c3aed", "--auth-radius": "4px" }`. */
  variables?: Partial<Record<`--auth-${string}`, string>>;
}

interface ProviderLook {
  /** `light` or `dark`; by default the elements follow the system's `prefers-color-scheme`. */
  theme?: "light" | "dark";
  /**
   * The elements' language (`en`, `de`, `fr`, `es`, `pt-BR`, `it`, `nl`, `ja`, `zh-CN`, `ar`; others match by
   * language, else English), for every element on the page. As with `init({ locale })`, a language the person
   * picked themselves wins. Default: the page's `<html lang>`, else the browser's languages.
   */
  locale?: string;
  appearance?: Appearance;
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
  const ref = useRef<AuthAppElement>(null);
  // Hydrating server-rendered HTML sets no properties (an app cannot be written into HTML): the elements
  // inside wait for their app until this hands it over, before the first paint.
  useLayoutEffect(() => {
    if (ref.current && ref.current.app !== app) ref.current.app = app;
  }, [app]);
  // A plain `auth-app` element rather than the AuthApp wrapper: React 19 sets a custom element's known
  // properties when it creates the element, before its children are connected, so the elements inside find
  // `.app` on their first lookup. The @lit/react wrapper would set it only later, in a layout effect.
  // The custom properties sit on `<auth-app>` (display: contents), so every element inside inherits them, on
  // the server-rendered HTML too. Its `locale` calls the elements' setLocale, as the attribute does.
  const style = props.appearance?.variables as CSSProperties | undefined;
  const element = createElement("auth-app", { ref, app, theme: props.theme, locale: props.locale, style }, props.children);
  return createElement(AppContext.Provider, { value: app }, element);
}

function optionsOf(props: AuthProviderWithOptions) {
  const { projectId, publishableClientKey, baseUrl, urls, tokenStore } = props;
  return { projectId, publishableClientKey, baseUrl, urls, tokenStore };
}
