/**
 * The smallest script-tag bundle: `<auth-app>`, `<auth-sign-in>` and `init()`, for pages that only sign
 * people in (the handler pages come with the full bundle). Built to dist/latchkey-sign-in.iife.js; its
 * gzip size is the budget `npm run size` checks.
 */
import { createClientApp, type ClientApp, type ClientAppOptions } from "@latchkey/core";
import { setDefaultApp } from "./base/app-registry.js";
import { AuthAppElement } from "./elements/app.js";
import { AuthSignInElement } from "./elements/sign-in.js";

export { setDefaultApp, AuthAppElement, AuthSignInElement };

export function init(options: ClientAppOptions): ClientApp {
  const app = createClientApp(options);
  setDefaultApp(app);
  return app;
}

if (!customElements.get("auth-app")) customElements.define("auth-app", AuthAppElement);
if (!customElements.get("auth-sign-in")) customElements.define("auth-sign-in", AuthSignInElement);
