import { html, type TemplateResult } from "lit-html";

/** The first letters of a name's first two words ("Acme Rockets" → "AR"), for a team or member without a picture. */
export function initials(name: string): string {
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts[1]?.[0] ?? "")).toUpperCase();
}

/**
 * A team's or member's picture, else their initials (the `.lk-avatar` rules of base/avatar.ts). Decorative
 * (aria-hidden): the name is always written next to it, so a screen reader would only hear it twice.
 */
export function teamAvatar(who: { displayName: string; profileImageUrl: string | null }): TemplateResult {
  return html`<span class="lk-avatar" part="avatar" aria-hidden="true">${who.profileImageUrl ? html`<img src=${who.profileImageUrl} alt="" />` : initials(who.displayName)}</span>`;
}
