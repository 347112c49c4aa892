import type { ClientApp } from "@latchkey/core";
import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { knownErrorMessage } from "../base/errors.js";
import { pageParam } from "../base/navigation.js";
import { msg } from "../base/i18n.js";

/** Handler pages (SPEC.md §2) and the element each shows. */
const PAGES: Record<string, () => TemplateResult> = {
  "sign-in": () => html`<auth-sign-in></auth-sign-in>`,
  "sign-up": () => html`<auth-sign-up></auth-sign-up>`,
  "forgot-password": () => html`<auth-forgot-password></auth-forgot-password>`,
  "password-reset": () => html`<auth-password-reset></auth-password-reset>`,
  "email-verification": () => html`<auth-email-verification></auth-email-verification>`,
  "magic-link-callback": () => html`<auth-magic-link-callback></auth-magic-link-callback>`,
  "oauth-callback": () => html`<auth-oauth-callback></auth-oauth-callback>`,
  "account-settings": () => html`<auth-account-settings></auth-account-settings>`,
  "team-invitation": () => html`<auth-team-invitation></auth-team-invitation>`,
  mfa: () => html`<auth-mfa></auth-mfa>`,
  "cli-auth-confirm": () => html`<auth-cli-auth-confirm></auth-cli-auth-confirm>`,
};

/**
 * Routes the app's handler pages: `/{handler path}/{page}` (default `/handler/sign-in`, …) shows the
 * matching element; `sign-out` signs out and goes to after-sign-out; `error` shows the error named in the URL
 * (`errorCode` and `message`; a known code is shown with its own translated message).
 * Mount it on a catch-all route of the handler path.
 *
 * @element auth-handler
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the error and not-found pages.
 * @csspart link - The "Go home" link of those pages.
 */
export class AuthHandlerElement extends AuthElement {
  private signingOut = false;

  protected override appAttached(app: ClientApp): void {
    if (this.page(app) === "sign-out" && !this.signingOut) {
      this.signingOut = true;
      void app.signOut().catch(() => app.redirectTo("afterSignOut", { replace: true }));
    }
  }

  private page(app: ClientApp): string {
    const base = app.urls.handler.replace(/\/+$/, "");
    const path = location.pathname.replace(/\/+$/, "");
    return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : "";
  }

  protected override render(): TemplateResult {
    if (!this.app) return html`<p class="lk-note" role="status">${msg("Loading…")}</p>`;
    const page = this.page(this.app);
    const known = PAGES[page];
    if (known) return known();
    if (page === "sign-out") return html`<div class="lk-card"><p role="status">${msg("Signing out…")}</p></div>`;
    if (page === "error") {
      const code = pageParam("errorCode") ?? pageParam("error");
      // A code these elements know reads in the page's language; otherwise the message that came with it.
      const message = (code ? knownErrorMessage(code) : undefined) ?? pageParam("message") ?? pageParam("error_description") ?? msg("Something went wrong.");
      return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Something went wrong")}</h2>
        <p role="alert">${message}</p>${code ? html`<p class="lk-note">${msg("Error code:")} <code>${code}</code></p>` : ""}
        <div class="lk-footer"><a part="link" href=${this.app.urls.home}>${msg("Go home")}</a></div></div>`;
    }
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Page not found")}</h2>
      <p>${msg("There is no page at this address.")}</p><div class="lk-footer"><a part="link" href=${this.app.urls.home}>${msg("Go home")}</a></div></div>`;
  }
}
