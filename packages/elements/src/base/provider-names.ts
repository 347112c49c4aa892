import { html, type TemplateResult } from "lit-html";
import { OAUTH_PROVIDER_NAMES } from "@latchkey/protocol/oauth-providers";
import { msg, str } from "./i18n.js";

/** A provider's display name; unknown ids are shown capitalised. */
export function providerName(id: string): string {
  return OAUTH_PROVIDER_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

/**
 * The provider's mark, served by the Latchkey server (not bundled: only enabled providers' marks are fetched,
 * and an `<img>` loads from any origin). Decorative: the button's text names the provider.
 */
export function providerIcon(baseUrl: string | undefined, id: string): TemplateResult {
  if (!baseUrl) return html``;
  return html`<img part="oauth-icon" src=${`${baseUrl.replace(/\/+$/, "")}/oauth-icons/${encodeURIComponent(id)}.svg`} alt="" width="20" height="20" />`;
}

/** One "Continue with …" button per provider, in the order given (the project's). */
export function oauthButtons(baseUrl: string | undefined, providers: ReadonlyArray<{ id: string }>, busy: boolean, onClick: (id: string) => void): TemplateResult[] {
  return providers.map(
    (p) => html`<button class="lk-oauth" part="oauth-button" type="button" ?disabled=${busy} @click=${() => onClick(p.id)}>${providerIcon(baseUrl, p.id)}<span>${msg(str`Continue with ${providerName(p.id)}`)}</span></button>`,
  );
}
