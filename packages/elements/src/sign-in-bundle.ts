/**
 * The smallest script-tag bundle: `<auth-app>`, `<auth-sign-in>` and `init()`, for pages that only sign
 * people in (the handler pages come with the full bundle). Built to dist/latchkey-sign-in.iife.js; its
 * gzip size is the budget `npm run size` checks.
 */
import { AuthAppElement } from "./elements/app.js";
import { AuthSignInElement } from "./elements/sign-in.js";

export { setDefaultApp } from "./base/app-registry.js";
export { setLocale, setLocalesUrl } from "./base/i18n.js";
export { init, type InitOptions } from "./init.js";
export { AuthAppElement, AuthSignInElement };

if (typeof customElements !== "undefined") {
  if (!customElements.get("auth-app")) customElements.define("auth-app", AuthAppElement);
  if (!customElements.get("auth-sign-in")) customElements.define("auth-sign-in", AuthSignInElement);
}
