import { createClientApp, createClientAppWithHostedPages, createHostedPageApp, type ClientApp } from "@latchkey/core";
import { initWith, type InitOptions as BaseInitOptions } from "./init.js";

export interface InitOptions extends BaseInitOptions {
  /**
   * Use the handler pages the Latchkey server at `baseUrl` hosts for the project (sign-up, forgot password,
   * the pages mails link to, …) instead of routes of the app's own: links to them bring people back to the
   * page they came from, signed in.
   */
  hostedPages?: boolean;
}

/**
 * `init` of the full bundle: creates the page's app and makes it the default for every element not inside an
 * `<auth-app>`; with `hostedPages`, an app whose handler pages are the server's.
 */
export function init(options: InitOptions): ClientApp {
  const { hostedPages, ...rest } = options;
  return initWith(hostedPages ? createClientAppWithHostedPages : createClientApp, rest);
}

/** How the server's hosted handler pages configure themselves (not for apps: use `init`). */
export function initHostedPage(options: BaseInitOptions): ClientApp {
  return initWith(createHostedPageApp, options);
}
